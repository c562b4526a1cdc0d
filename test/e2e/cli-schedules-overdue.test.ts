/**
 * `queue schedules` counts its next firings on from now; a firing whose time passed while no worker
 * ran is held by BullMQ until one does, and the listing says so instead of only promising later ones.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { useRedisServer } from '../helpers/redis-server.js';
import { hourlyBtcPipeline } from './helpers/hourly-pipeline.js';
import { runCli, tempDir } from './helpers/cli.js';

describe('a schedule with no worker running', () => {
  const redis = useRedisServer();

  it('its firing past due is named as overdue, with the file the schedule runs', async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url };
    const file = hourlyBtcPipeline('late');
    const made = await runCli(['enqueue', file, '--since', '1d', '--every', '* * * * * *', '--name', 'each-second', '--output', tempDir()], { env });
    expect(made.code, made.stderr).toBe(0);
    // Past the first firing and the grace a running worker would need to take it.
    await delay(7_000);
    const listed = await runCli(['queue', 'schedules', '--json'], { env });
    const [schedule] = (JSON.parse(listed.stdout) as { schedules: { file: string; overdue: string | null; next: string[] }[] }).schedules;
    expect(schedule!.file).toBe(file);
    expect(schedule!.overdue).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/);
    expect(Date.parse(schedule!.overdue!)).toBeLessThan(Date.parse(schedule!.next[0]!));
    const text = await runCli(['queue', 'schedules'], { env });
    expect(text.stdout).toContain(`each-second: ${file} at "* * * * * *" in UTC; next `);
    expect(text.stdout).toContain(`; the firing of ${schedule!.overdue!} is overdue: no worker has taken it (is one running?)\n`);
  }, 30_000);
});
