/**
 * A batch worker (`worker --until-empty`) whose Redis goes away: it must end, exit 1 with
 * QL_COORDINATOR_DOWN, put its slices back, and print no raw connection traces on the way.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { settleTokens, startRedisServer, useRedisServer } from '../helpers/redis-server.js';
import { runCli, startCli, tempDir } from './helpers/cli.js';

const CLOCK = '2026-11-20T12:00:00Z';

function pipelineFile(): string {
  const file = join(tempDir('ql-wdown-p-'), 'queued.yaml');
  writeFileSync(file, ['name: queued', 'source:', '  type: kline-history', '  codes: [BTCUSDT]', '  intervals: [1m]', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet', ''].join('\n'));
  return file;
}

// Each test has its own Redis (or none): they run at once, each mostly waiting out a patience.
describe.concurrent('a batch worker whose coordinator goes away', () => {
  const redis = useRedisServer({ settled: ['demo-basic'] });

  it('stops within its patience: exit 1, QL_COORDINATOR_DOWN named, no raw traces', async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url };
    const file = pipelineFile();
    // The basic plan (1 request a second): ten 1m days keep the worker busy while Redis goes.
    const span = ['--since', '2026-11-08T00:00:00Z', '--until', '2026-11-17T23:59:00Z', '--clock', CLOCK, '--plan', 'basic'];
    const queued = await runCli(['enqueue', file, ...span, '--output', tempDir()], { env });
    expect(queued.code, queued.stderr).toBe(0);
    // A patience shorter than the default 15 s, and a stop grace shorter than the default 4 s (what
    // the slices and the clean-up get once it has run out): the same path, sooner.
    const worker = startCli(['worker', '--until-empty', '--coordinator-patience', '3', '--stop-timeout', '1', '--clock', CLOCK, '--plan', 'basic', '--log-level', 'info'], { env });
    await worker.waitForStderr(/slice started/);
    await redis().kill();
    const r = await worker.result;
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`quotelake: worker --until-empty stopped: coordinator ${redis().url} is unreachable (no connection for 3 s)`);
    // Node's inspection of an error object, as BullMQ printed it for every reconnection.
    expect(r.stderr).not.toMatch(/^Error: connect ECONNREFUSED/m);
    expect(r.stderr).not.toMatch(/^\s+at /m);
  }, 90_000);

  // BullMQ 5 retried a failed slice's move without a pause once closing, for ever when the
  // connection was let go of: the worker spun at full CPU and no timer or signal reached it.
  it('a Redis that keeps the connection and answers nothing (frozen) is as gone: exit 1 within its patience', async () => {
    const frozen = await startRedisServer();
    let worker: ReturnType<typeof startCli> | undefined;
    try {
      await settleTokens(frozen.url, ['demo-basic']);
      const env = { QUOTELAKE_REDIS_URL: frozen.url };
      const span = ['--since', '2026-11-08T00:00:00Z', '--until', '2026-11-17T23:59:00Z', '--clock', CLOCK, '--plan', 'basic'];
      const queued = await runCli(['enqueue', pipelineFile(), ...span, '--output', tempDir()], { env });
      expect(queued.code, queued.stderr).toBe(0);
      worker = startCli(['worker', '--until-empty', '--coordinator-patience', '3', '--stop-timeout', '1', '--clock', CLOCK, '--plan', 'basic', '--log-level', 'info'], { env });
      await worker.waitForStderr(/slice started/);
      process.kill(frozen.pid(), 'SIGSTOP');
      const r = await worker.result;
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain(`quotelake: worker --until-empty stopped: coordinator ${frozen.url} is unreachable (no answer for 3 s)`);
      expect(r.stderr).not.toMatch(/^\s+at /m);
    } finally {
      // A worker that hangs would outlive the test.
      worker?.child.kill('SIGKILL');
      await frozen.stop();
    }
  }, 60_000);

  it('a patience that is not a positive number of seconds is a usage error, before any connection', async () => {
    const cases: [string, string][] = [
      ['0', '--coordinator-patience 0: must be a positive number of seconds'],
      ['-2', '--coordinator-patience -2: must be a positive number of seconds'],
      ['soon', '--coordinator-patience must be a number, got "soon"'],
      // Beyond what a Node timer holds, a timer fires at once.
      ['1e9', '--coordinator-patience 1000000000: must be at most 2147483 seconds'],
    ];
    // Nothing listens there: the setting is checked first. Independent refusals: at once.
    const [stalled, ...refused] = await Promise.all([
      runCli(['worker', '--until-empty', '--stalled-timeout', '1e7'], { env: { QUOTELAKE_REDIS_URL: 'redis://127.0.0.1:9' } }),
      ...cases.map(([bad]) => runCli(['worker', '--until-empty', '--coordinator-patience', bad], { env: { QUOTELAKE_REDIS_URL: 'redis://127.0.0.1:9' } })),
    ]);
    for (const [i, [, said]] of cases.entries()) {
      const r = refused[i]!;
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(said);
    }
    expect(stalled.code, stalled.stderr).toBe(2);
    expect(stalled.stderr).toContain('--stalled-timeout 10000000: must be at most 2147483 seconds (about 24 days)');
  });

  it('--stalled-timeout below 1 s is a usage error before any connection: the lock would lapse during a commit\'s pause', async () => {
    const env = { QUOTELAKE_REDIS_URL: 'redis://127.0.0.1:9' };
    const [half, tiny, one] = await Promise.all(['0.5', '0.001', '1'].map((t) => runCli(['worker', '--until-empty', '--stalled-timeout', t], { env })));
    for (const [r, t] of [[half, '0.5'], [tiny, '0.001']] as const) {
      expect(r!.code, r!.stderr).toBe(2);
      expect(r!.stderr).toContain(`quotelake: --stalled-timeout ${t}: must be at least 1 second: a worker renews its slices' locks every half of it`);
      expect(r!.stderr).toContain('hint: give 1 or more (default 30)');
      expect(r!.stderr).not.toContain('does not answer');
    }
    // 1 s is taken: the worker goes on to the coordinator, which is not there.
    expect(one!.code, one!.stderr).toBe(1);
    expect(one!.stderr).toContain('does not answer');
  });

  it('--coordinator-patience without --until-empty is a usage error: a worker run until stopped waits for Redis however long, so the patience would be ignored', async () => {
    const r = await runCli(['worker', '--coordinator-patience', '5'], { env: { QUOTELAKE_REDIS_URL: 'redis://127.0.0.1:9' } });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('quotelake: --coordinator-patience goes with --until-empty: a worker run until stopped waits for Redis to come back, however long');
    expect(r.stderr).toContain('hint: add --until-empty for a batch that stops without Redis, or leave --coordinator-patience out');
    expect(r.stderr).not.toContain('does not answer');
  });

  it('--stop-timeout and --clock are checked before any connection too: exit 2, not the exit 1 of a coordinator that does not answer', async () => {
    const env = { QUOTELAKE_REDIS_URL: 'redis://127.0.0.1:9' };
    const [flag, fromEnv, clock] = await Promise.all([
      runCli(['worker', '--until-empty', '--stop-timeout', '0'], { env }),
      runCli(['worker', '--until-empty'], { env: { ...env, QUOTELAKE_STOP_TIMEOUT: 'soon' } }),
      runCli(['worker', '--until-empty', '--clock', 'yesterday'], { env }),
    ]);
    expect([flag.code, fromEnv.code, clock.code]).toEqual([2, 2, 2]);
    expect(flag.stderr).toContain('quotelake: --stop-timeout 0: must be a positive number of seconds');
    expect(fromEnv.stderr).toContain('quotelake: QUOTELAKE_STOP_TIMEOUT="soon": must be a positive number of seconds');
    expect(clock.stderr).toContain('--clock must be an ISO instant');
    for (const r of [flag, fromEnv, clock]) expect(r.stderr).not.toContain('does not answer');
  });
});
