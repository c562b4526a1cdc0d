/**
 * A worker on a token pool whose slice stops at the daily quota of the only token covering its
 * code, while another token still has quota (crypto on an all-us token and a one-request
 * professional one): the slice-quota line names that token (redacted), the codes and the token left
 * that does not cover them, as `run` says it, with the same fields in JSON. It said "slice waits for
 * the daily quota" alone, as if the whole pool were spent. Through the built CLI, its built-in
 * emulator on a frozen clock and a real redis-server on loopback.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useRedisServer } from '../helpers/redis-server.js';
import { runCli, tempDir } from './helpers/cli.js';

const CLOCK = '2026-11-12T15:00:00Z';
const RESET = '2026-11-13T00:00:00.000Z';
const TOKENS = ['demo-all-us', 'demo-pro-tiny'];

describe('a worker whose pool token covering a slice used up its day', () => {
  const redis = useRedisServer({ settled: TOKENS });

  it('names the token, the codes and the token left that does not cover them; exit 75', async () => {
    const dir = tempDir('ql-worker-pool-stop-');
    writeFileSync(join(dir, 'plans.yaml'), 'plans:\n  - name: pro-tiny\n    base: professional\n    perDay: 1\n');
    writeFileSync(
      join(dir, 'mix.yaml'),
      'name: mix\nsource:\n  type: kline-history\n  codes: [BTCUSDT, ETHUSDT]\n  intervals: [1d]\n  since: 2026-11-01T00:00:00Z\n  until: 2026-11-12T00:00:00Z\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n',
    );
    const env = { QUOTELAKE_REDIS_URL: redis().url };
    const queued = await runCli(['enqueue', join(dir, 'mix.yaml'), '--output', join(dir, 'out'), '--clock', CLOCK, '--json'], { env });
    expect(queued.code, queued.stderr).toBe(0);
    expect(JSON.parse(queued.stdout)).toMatchObject({ slices: 1 });
    const poolEnv = { ...env, QUOTELAKE_TOKENS: TOKENS.map((t, i) => `${t}:${i === 0 ? 'all-us' : 'pro-tiny'}`).join(',') };
    const args = ['worker', '--until-empty', '--concurrency', '1', '--clock', CLOCK, '--plans-file', join(dir, 'plans.yaml'), '--log-format', 'json'];
    const r = await runCli(args, { env: poolEnv });
    expect(r.code, r.stderr).toBe(75);
    const lines = r.stderr.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    // The slice's first series took pro-tiny's one request; the other met its quota.
    const stop = lines.find((l) => l.event === 'slice-quota')!;
    expect(stop).toMatchObject({
      pipeline: 'mix',
      codes: ['BTCUSDT', 'ETHUSDT'],
      tokens: [{ tokenIndex: 2, token: 'demo…', plan: 'pro-tiny', resetAt: RESET }],
      tokensWithQuota: [{ tokenIndex: 1, token: 'demo…', plan: 'all-us' }],
    });
    expect(stop.rows).toBeGreaterThan(0);
    expect(String(stop.msg)).toMatch(
      new RegExp(
        `^slice waits for the daily quota: BTCUSDT,ETHUSDT 1d \\S+: \\d+ rows committed; the daily request quota of token 2 \\(demo… \\[[0-9a-f]{8}\\], plan pro-tiny\\) of the 2 tokens of the pool is used up, ` +
          `and it is the only token whose plan covers BTCUSDT, ETHUSDT; the other token, token 1 \\(demo… \\[[0-9a-f]{8}\\], plan all-us\\): [\\d,]+ requests left, still has quota today but does not cover those codes; ` +
          `it runs again in 540 min\\. To fetch them before 2026-11-13T00:00:00\\.000Z, add to the pool a token on a plan that covers BTCUSDT, ETHUSDT\\.$`,
      ),
    );
    expect(r.stderr).not.toContain('demo-pro-tiny');
    expect(r.stderr).not.toContain('demo-all-us');
  }, 60_000);
});
