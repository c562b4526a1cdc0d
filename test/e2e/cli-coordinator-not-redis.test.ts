/**
 * A coordinator URL whose port is another service's (a typo, the emulator's port): it answers, not
 * in Redis's protocol. Running again cannot mend that, so it is a setting to fix (exit 2,
 * QL_COORDINATOR_REFUSED) that says what answers there, never "unreachable, start Redis again"
 * with ioredis' own "Please report this.".
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { serveChild, type ServedEmulator } from './helpers/serve.js';

const SAID = 'is not a Redis server: what answers there does not speak Redis\'s protocol';
const HINT = 'check the host and port in --coordinator / QUOTELAKE_REDIS_URL: they name another service';

describe.concurrent('a coordinator URL naming an HTTP server', () => {
  let served: ServedEmulator;
  beforeAll(async () => {
    served = await serveChild([], ['--clock', '2026-11-20T12:00:00Z']);
  });
  afterAll(async () => {
    await served.stop();
  });
  const url = () => served.url.replace('http://', 'redis://');

  it.each([['queue', 'status'], ['worker', '--until-empty'], ['enqueue', 'kline-backfill', '--clock', '2026-11-20T12:00:00Z']])('%s %s: exit 2, named as not Redis', async (...args) => {
    const r = await runCli([...args, '--coordinator', url(), ...(args[0] === 'enqueue' ? ['--output', tempDir()] : [])]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`quotelake: the coordinator ${url()} ${SAID}`);
    expect(r.stderr).toContain(HINT);
    expect(r.stderr).not.toContain('Please report this');
    expect(r.stderr).not.toContain('start Redis');
  });

  it('run --json and quota: the same, as QL_COORDINATOR_REFUSED', async () => {
    const output = join(tempDir('ql-not-redis-'), 'lake');
    const run = await runCli(['run', 'kline-backfill', '--since', '1d', '--clock', '2026-11-20T12:00:00Z', '--output', output, '--base-url', served.url, '--token', 'demo-professional', '--plan', 'professional', '--coordinator', url(), '--json']);
    expect(run.code, run.stderr).toBe(2);
    const doc = JSON.parse(run.stdout) as { exitCode: number; error: { code: string; message: string; hint: string } };
    expect(doc.exitCode).toBe(2);
    expect(doc.error.code).toBe('QL_COORDINATOR_REFUSED');
    expect(doc.error.message).toContain(SAID);
    expect(doc.error.message).not.toContain('Please report this');
    const quota = await runCli(['quota', '--output', output, '--coordinator', url()]);
    expect(quota.code, quota.stderr).toBe(2);
    expect(quota.stderr).toContain(SAID);
  });
});
