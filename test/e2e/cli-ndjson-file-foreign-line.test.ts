/**
 * An NDJSON file sink whose file holds a line no run wrote (put there by hand or by another tool),
 * through the built CLI: exit 2 before any request, the file untouched, and a hint that points at
 * that file, not at the pipeline, which is fine.
 */
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

const PIPELINE = `name: bars-export
source:
  type: kline-history
  codes: [BTCUSDT]
  intervals: [1h]
  since: 2026-11-18T00:00:00Z
sink:
  type: ndjson
  path: exports/{dataset}.ndjson
`;

describe('an NDJSON file with a line of another tool', () => {
  it('exit 2, no request, the file as it was, and the hint names the file rather than the pipeline', async () => {
    const dir = tempDir();
    const pipeline = join(dir, 'bars-export.yaml');
    writeFileSync(pipeline, PIPELINE);
    const output = join(dir, 'out');
    mkdirSync(join(output, 'exports'), { recursive: true });
    const file = join(output, 'exports', 'kline.ndjson');
    const text = 'code,interval,ts\n';
    writeFileSync(file, text);

    const r = await runCli(['run', pipeline, '--output', output, '--clock', '2026-11-20T00:00:00Z', '--json']);
    expect(r.code, r.stderr).toBe(2);
    const run = (JSON.parse(r.stdout) as { runs: { requestsTotal: number; error: { code: string; message: string; hint: string } }[] }).runs[0]!;
    expect(run.requestsTotal).toBe(0);
    expect(run.error.code).toBe('QL_CONFIG');
    expect(run.error.message).toMatch(/^ndjson: sink path exports\/kline\.ndjson: line 1 is not a JSON object/);
    expect(run.error.hint).toBe('the pipeline is fine: edit the file at its sink path (line 1), or move it away, then run the same command again');
    expect(r.stderr).not.toContain('fix the pipeline file');
    expect(readFileSync(file, 'utf8')).toBe(text);
  }, 60_000);
});
