/**
 * A worker stopped (SIGTERM) while its slices are being fetched puts them back and says so; it does
 * not pass on the words of the slices' own fetch runs, which were about their scratch folders ("the
 * rows written so far are kept, and the next run delivers the whole window again (this output keeps
 * no state)", once per slice) and read as if the lake kept part of a slice. The slices are held in
 * flight by the coordinator's first-minute guard of a fresh Redis, so the stop finds them fetching.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useRedisServer } from '../helpers/redis-server.js';
import { runCli, startCli, tempDir } from './helpers/cli.js';

const CLOCK = '2026-11-20T12:00:00Z';

describe('a worker stopped while fetching', () => {
  const redis = useRedisServer();

  it('puts each slice back, in its own words only, and exits 130', async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url };
    const file = join(tempDir('ql-worker-stop-p-'), 'stopped.yaml');
    writeFileSync(file, ['name: stopped', 'source:', '  type: kline-history', '  codes: [BTCUSDT, ETHUSDT]', '  intervals: [1h, 1d]', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet', ''].join('\n'));
    const output = tempDir('ql-worker-stop-lake-');
    const made = await runCli(['enqueue', file, '--since', '2026-11-18', '--until', '2026-11-19', '--output', output, '--clock', CLOCK], { env });
    expect(made.code, made.stderr).toBe(0);
    const worker = startCli(['worker', '--concurrency', '4', '--clock', CLOCK], { env });
    await worker.waitForStderr(/"event":"coordinator-guard"/);
    worker.child.kill('SIGTERM');
    const r = await worker.result;
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('quotelake worker: SIGTERM: taking no new slice');
    expect(r.stderr).toMatch(/stopped: slice put back: /);
    expect(r.stderr).not.toContain('run aborted');
    expect(r.stderr).not.toContain('the next run delivers the whole window again');
    const status = JSON.parse((await runCli(['queue', 'status', '--json'], { env })).stdout) as { waiting: number; active: number; completed: number; failed: number };
    expect(status).toMatchObject({ active: 0, completed: 0, failed: 0 });
    expect(status.waiting).toBeGreaterThan(0);
  }, 60_000);
});
