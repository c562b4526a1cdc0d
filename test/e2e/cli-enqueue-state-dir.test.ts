/**
 * `enqueue --state-dir` travels with the slices, made absolute against the enqueuer's folder as
 * `--output` is: every worker keeps the run manifests there, wherever it was started.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useRedisServer } from '../helpers/redis-server.js';
import { hourlyBtcPipeline } from './helpers/hourly-pipeline.js';
import { runCli, tempDir } from './helpers/cli.js';

const CLOCK = '2026-11-20T12:00:00Z';

describe('enqueue --state-dir', () => {
  const redis = useRedisServer({ settled: ['demo-professional'] });

  it('is where the workers keep the state, not <output>/.state', async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url };
    const file = hourlyBtcPipeline('stated');
    const here = tempDir('ql-sd-cwd-');
    const output = tempDir();
    const span = ['--since', '2026-11-18T00:00:00Z', '--until', '2026-11-18T23:00:00Z', '--clock', CLOCK];
    const queued = await runCli(['enqueue', file, ...span, '--output', output, '--state-dir', 'my-state'], { env, cwd: here });
    expect(queued.code, queued.stderr).toBe(0);
    const worker = await runCli(['worker', '--until-empty', '--clock', CLOCK], { env, cwd: tempDir('ql-sd-elsewhere-') });
    expect(worker.code, worker.stderr).toBe(0);
    expect(readdirSync(join(here, 'my-state', 'runs'))).toHaveLength(1);
    expect(existsSync(join(output, '.state'))).toBe(false);
  }, 30_000);
});
