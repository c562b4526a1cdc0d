/**
 * A worker runs the slices of every pipeline on the queue, and `queue drop` takes the pipeline's
 * own name "as the worker logs show it": its readable log lines name the pipeline of each slice,
 * those of a slice that failed for good included (a slice id alone names no pipeline).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useRedisServer } from '../helpers/redis-server.js';
import { runCli, tempDir } from './helpers/cli.js';

const CLOCK = '2026-11-20T12:00:00Z';
const SPAN = ['--since', '2026-11-18T00:00:00Z', '--until', '2026-11-18T23:00:00Z', '--clock', CLOCK];

function pipelineFile(name: string): string {
  const file = join(tempDir('ql-wlog-p-'), `${name}.yaml`);
  writeFileSync(file, [`name: ${name}`, 'source:', '  type: kline-history', '  codes: [BTCUSDT]', '  intervals: [1h]', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet', ''].join('\n'));
  return file;
}

describe('the log lines of a worker running two pipelines', () => {
  const redis = useRedisServer({ settled: ['demo-professional'] });

  it('name the pipeline of each slice, a failed one too, by the name queue drop takes', async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url };
    const alpha = pipelineFile('alpha');
    const beta = pipelineFile('beta');
    for (const file of [alpha, beta]) expect((await runCli(['enqueue', file, ...SPAN, '--output', tempDir()], { env })).code).toBe(0);
    // beta's file broken since: its slice fails for good on every worker.
    writeFileSync(beta, readFileSync(beta, 'utf8').replace('codes: [BTCUSDT]', 'codes: [NOSUCH.US]'));

    const r = await runCli(['worker', '--until-empty', '--concurrency', '1', '--clock', CLOCK, '--log-level', 'info'], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/INFO: alpha: slice started: BTCUSDT 1h interval=1h\/year=2026\/date=2026-11-18/);
    expect(r.stderr).toMatch(/INFO: alpha: slice done: BTCUSDT 1h interval=1h\/year=2026\/date=2026-11-18: 24 rows/);
    expect(r.stderr).toMatch(/WARN: beta: slice slice-[0-9a-f]+ failed for good \(retrying cannot mend it\): .*unknown product code "NOSUCH.US"/);

    const dropped = await runCli(['queue', 'drop', 'beta', '--only', 'failed', '--yes', '--json'], { env });
    expect(dropped.code, dropped.stderr).toBe(0);
    expect(JSON.parse(dropped.stdout)).toMatchObject({ pipeline: 'beta', dropped: { waiting: 0, failed: 1 } });
  }, 90_000);
});
