/**
 * `queue unschedule NAME` of a name no schedule has: exit 1, and the message names the schedules
 * the queue holds (the nearest one when a name is mistyped), as `queue drop` names the pipelines.
 */
import { describe, expect, it } from 'vitest';
import { useRedisServer } from '../helpers/redis-server.js';
import { runCli } from './helpers/cli.js';

describe('queue unschedule of a name no schedule has', () => {
  const redis = useRedisServer();

  it('exit 1, naming the schedules held and the nearest name', async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url };
    const none = await runCli(['queue', 'unschedule', 'nightly'], { env });
    expect(none.code, none.stderr).toBe(1);
    expect(none.stderr).toBe('quotelake: no schedule named nightly; the queue holds no schedule\n  hint: "quotelake queue schedules" lists them; "quotelake enqueue <pipeline> --every CRON" makes one\n');

    const made = await runCli(['enqueue', 'kline-backfill', '--since', '2d', '--every', '30 1 * * *', '--name', 'nightly', '--clock', '2026-11-20T12:00:00Z'], { env });
    expect(made.code, made.stderr).toBe(0);
    const typo = await runCli(['queue', 'unschedule', 'nigthly'], { env });
    expect(typo.code, typo.stderr).toBe(1);
    expect(typo.stderr).toBe('quotelake: no schedule named nigthly; the queue holds the schedule nightly (did you mean nightly?)\n  hint: "quotelake queue schedules" lists them; "quotelake enqueue <pipeline> --every CRON" makes one\n');
    expect((await runCli(['queue', 'unschedule', 'nightly'], { env })).code).toBe(0);
  });
});
