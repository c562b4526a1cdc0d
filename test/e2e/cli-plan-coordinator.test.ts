/**
 * `plan` and `run --dry-run` with a coordinator: a coordinated run charges its day in Redis, not in
 * the state dir's quota file, so the plan must read the shared count. A real run through a real
 * redis-server spends a small plan's day at a served emulator; then a plan of another output on the
 * same token and coordinator says what the next run will meet: nothing left (exit 75), where it
 * used to promise the whole day.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleTokens, startRedisServer, type RedisTestServer } from '../helpers/redis-server.js';
import { runCli, startCli, tempDir } from './helpers/cli.js';

const NOW = '2026-11-12T15:00:00Z';
const TOKEN = 'plan-shared-token';
const PER_DAY = 12;

function writeFiles(dir: string): string {
  writeFileSync(
    join(dir, 'plans.yaml'),
    ['plans:', '  - name: small-day', '    base: professional', `    perDay: ${PER_DAY}`, 'tokens:', `  - token: ${TOKEN}`, '    plan: small-day', ''].join('\n'),
  );
  const file = join(dir, 'p.yaml');
  writeFileSync(
    file,
    ['name: p', 'service:', '  plan: small-day', '  plansFile: plans.yaml', 'source:', '  type: kline-history', '  codes: [BTCUSDT]', '  intervals: [1m]', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet', ''].join('\n'),
  );
  return file;
}

describe('plan and run --dry-run read the coordinator\'s day count', () => {
  let redis: RedisTestServer;
  let served: ReturnType<typeof startCli>;
  let baseUrl: string;
  let dir: string;
  let pipeline: string;

  beforeAll(async () => {
    dir = tempDir('ql-plan-coord-');
    pipeline = writeFiles(dir);
    redis = await startRedisServer();
    await settleTokens(redis.url, [TOKEN]);
    served = startCli(['serve', '--port', '0', '--plans-file', join(dir, 'plans.yaml'), '--clock', NOW, '--clock-runs']);
    baseUrl = (await served.waitForStderr(/quotelake emulator listening on (http:\/\/127\.0\.0\.1:\d+)\n/))[1]!;
  });
  afterAll(async () => {
    served?.child.kill('SIGTERM');
    await served?.result;
    await redis?.stop();
  });

  it('after a coordinated run spent the day, a plan of another output exits 75 with nothing left', async () => {
    const service = ['--base-url', baseUrl, '--token', TOKEN, '--clock', NOW];
    const spent = await runCli(['run', pipeline, '--output', join(dir, 'a'), '--coordinator', redis.url, '--quiet', ...service, '--since', '2026-11-02T00:00:00Z', '--until', '2026-11-12T00:00:00Z']);
    expect(spent.code, spent.stderr).toBe(75);

    // One day of 1m bars: a few requests, well within a whole day's quota.
    const common = [...service, '--since', '2026-11-11T00:00:00Z', '--until', '2026-11-12T00:00:00Z'];
    const planned = await runCli(['plan', pipeline, '--output', join(dir, 'b'), '--json', ...common], { env: { QUOTELAKE_REDIS_URL: redis.url } });
    expect(planned.code, planned.stderr).toBe(75);
    const doc = JSON.parse(planned.stdout) as { exitCode: number; plans: { quota: { used: number; remaining: number; limit: number } }[] };
    expect(doc.exitCode).toBe(75);
    expect(doc.plans[0]!.quota).toMatchObject({ used: PER_DAY, remaining: 0, limit: PER_DAY });

    const dry = await runCli(['run', '--dry-run', pipeline, '--output', join(dir, 'b'), '--coordinator', redis.url, ...common]);
    expect(dry.code, dry.stderr).toBe(75);
    expect(dry.stdout).toContain(`all of the 0 left today (limit ${PER_DAY}`);

    // Without the coordinator the state dir's (empty) quota file is all a plan has: the whole day.
    const alone = await runCli(['plan', pipeline, '--output', join(dir, 'b'), '--json', ...common]);
    expect(alone.code, alone.stderr).toBe(0);
    expect((JSON.parse(alone.stdout) as { plans: { quota: { remaining: number } }[] }).plans[0]!.quota.remaining).toBe(PER_DAY);
  });

  it('a coordinator that is not there fails the plan as it would fail the run (exit 1, QL_COORDINATOR_DOWN)', async () => {
    const down = await runCli(['plan', pipeline, '--output', join(dir, 'c'), '--json', '--base-url', baseUrl, '--token', TOKEN, '--clock', NOW, '--coordinator', 'redis://127.0.0.1:1']);
    expect(down.code, down.stderr).toBe(1);
    expect(down.stderr).toContain('coordinator redis://127.0.0.1:1 is unreachable');
  });
});
