/**
 * Pipeline files that retry after a few milliseconds (`service.retry`), for the tests that meet a
 * failing service (5xx answers, dropped answers, a closed port) and check what a run does about
 * it, not how long it waits: the default backoff (up to 250 ms × 2^(n-1)) costs seconds per failed
 * request. The attempts stay at the default (6), so a flaky service is met as often as before.
 * A 429 and a Retry-After are unaffected (the limiter holds a window; the asked wait is honoured).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseDocument } from 'yaml';
import { ROOT, tempDir } from './cli.js';

export const QUICK_RETRY = { baseDelayMs: 2, maxDelayMs: 20 } as const;

/**
 * A copy of a pipeline with QUICK_RETRY under `service.retry`, under the same file name and
 * pipeline name: `pipeline` is a shipped name (`kline-backfill`) or a YAML file's path.
 */
export function quickRetry(pipeline: string): string {
  const from = pipeline.includes('/') ? pipeline : join(ROOT, 'pipelines', `${pipeline}.yaml`);
  const doc = parseDocument(readFileSync(from, 'utf8'));
  doc.setIn(['service', 'retry'], doc.createNode({ ...QUICK_RETRY }));
  const file = join(tempDir('ql-quick-retry-'), basename(from));
  writeFileSync(file, doc.toString());
  return file;
}
