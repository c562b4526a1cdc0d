/**
 * A worker whose own storage settings cannot write the lake (its AWS credentials refused here) fails
 * no slice: another worker, whose settings can, would run it. It stops (exit 2) with the slice back
 * on the queue, as for a refused service token; a worker with good credentials then runs it. A
 * real s3rver on loopback, a real Redis, the built-in emulator at a frozen instant.
 */
import { describe, expect, it } from 'vitest';
import { useRedisServer } from '../helpers/redis-server.js';
import { useS3Server } from '../helpers/s3-server.js';
import { runCli } from './helpers/cli.js';

const CLOCK = '2026-11-20T12:00:00Z';
const SPAN = ['--codes', 'BTCUSDT', '--since', '2026-11-18T00:00:00Z', '--until', '2026-11-18T23:00:00Z', '--clock', CLOCK];

async function status(env: Record<string, string>): Promise<Record<string, number>> {
  return JSON.parse((await runCli(['queue', 'status', '--json'], { env })).stdout) as Record<string, number>;
}

describe('a worker whose storage credentials are refused', () => {
  const redis = useRedisServer({ settled: ['demo-professional'] });
  const s3 = useS3Server();

  it('stops with exit 2 and the slices back on the queue; a worker with good credentials runs them', async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url };
    const lake = `s3://${s3().bucket}/worker-fault`;
    const queued = await runCli(['enqueue', 'kline-backfill', ...SPAN, '--output', lake, '--json'], { env });
    expect(queued.code, queued.stderr).toBe(0);
    expect(JSON.parse(queued.stdout)).toMatchObject({ slices: 2, added: 2 });

    const refused = await runCli(['worker', '--until-empty', '--concurrency', '1', '--clock', CLOCK, '--s3-endpoint', s3().endpoint], {
      env: { ...env, AWS_ACCESS_KEY_ID: 'NOT-A-KEY', AWS_SECRET_ACCESS_KEY: 'not-a-secret' },
    });
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(/quotelake: worker stopped: output s3:\/\/lake-test\/worker-fault: \S+ s3:\/\/lake-test\/worker-fault\/\S*: the credentials were refused or not found \(\w+\); the slice went back to the queue/);
    expect(refused.stderr).not.toContain('failed for good');
    expect(refused.stderr).not.toContain('not-a-secret');
    expect(await status(env)).toMatchObject({ waiting: 2, active: 0, completed: 0, failed: 0 });

    const good = await runCli(['worker', '--until-empty', '--clock', CLOCK, '--s3-endpoint', s3().endpoint], { env: { ...env, AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' } });
    expect(good.code, good.stderr).toBe(0);
    expect(await status(env)).toMatchObject({ waiting: 0, completed: 2, failed: 0 });
  }, 120_000);
});
