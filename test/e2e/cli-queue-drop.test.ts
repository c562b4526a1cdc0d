/**
 * `queue drop <pipeline>|--all` takes one pipeline's (or every pipeline's) waiting and failed jobs
 * and schedules off a real queue, after a confirmation (`--yes` without a terminal); the other
 * pipelines' jobs stay, the ETA's count of requests loses what was dropped, and what was dropped
 * can be enqueued again.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useRedisServer } from '../helpers/redis-server.js';
import { hourlyBtcPipeline } from './helpers/hourly-pipeline.js';
import { runCli, tempDir } from './helpers/cli.js';

const CLOCK = '2026-11-20T12:00:00Z';

function writePipeline(file: string, name: string): void {
  hourlyBtcPipeline(name, file);
}

interface Status {
  waiting: number;
  failed: number;
  eta: { requestsLeft: number };
}

describe('queue drop', () => {
  const redis = useRedisServer({ settled: ['demo-professional'] });

  it("drops one pipeline's waiting and failed slices and its schedule, confirmed; the other pipeline's stay", async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url };
    const folder = tempDir('ql-drop-p-');
    const [a, b] = [join(folder, 'a.yaml'), join(folder, 'b.yaml')];
    writePipeline(a, 'alpha');
    writePipeline(b, 'beta');
    const output = tempDir();
    const enqueue = (file: string, since: string, until: string, more: string[] = []) => runCli(['enqueue', file, '--since', since, '--until', until, '--output', output, '--clock', CLOCK, '--json', ...more], { env });
    // Two slices of alpha fail for good: its file names another pipeline when the worker reads it.
    expect((await enqueue(a, '2026-11-10T00:00:00Z', '2026-11-11T23:00:00Z')).code).toBe(0);
    writePipeline(a, 'renamed');
    expect((await runCli(['worker', '--until-empty', '--clock', CLOCK], { env })).code).toBe(2);
    writePipeline(a, 'alpha');
    // Then three alpha slices wait, a schedule of alpha, and two beta slices.
    expect((await enqueue(a, '2026-11-12T00:00:00Z', '2026-11-14T23:00:00Z')).code).toBe(0);
    expect((await enqueue(a, '2d', '1d', ['--every', '0 2 * * *', '--name', 'alpha-nightly'])).code).toBe(0);
    expect((await enqueue(b, '2026-11-12T00:00:00Z', '2026-11-13T23:00:00Z')).code).toBe(0);
    const status = async () => JSON.parse((await runCli(['queue', 'status', '--json'], { env })).stdout) as Status;
    expect(await status()).toMatchObject({ waiting: 5, failed: 2, eta: { requestsLeft: 7 } });

    const unconfirmed = await runCli(['queue', 'drop', 'alpha'], { env });
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain('quotelake: queue drop takes off the queue for the pipeline alpha: 3 waiting slices (3 requests planned), 2 failed jobs, the schedule alpha-nightly ("0 2 * * *" in UTC).');
    expect(unconfirmed.stderr).toContain('add --yes to confirm it in a script: quotelake queue drop alpha --yes');
    expect(await status()).toMatchObject({ waiting: 5, failed: 2 });

    const dropped = await runCli(['queue', 'drop', 'alpha', '--yes', '--json'], { env });
    expect(dropped.code, dropped.stderr).toBe(0);
    expect(JSON.parse(dropped.stdout)).toEqual({
      quotelake: expect.any(String) as string,
      command: 'queue drop',
      pipeline: 'alpha',
      dropped: { waiting: 3, failed: 2, schedules: ['alpha-nightly'], requests: 5 },
      active: 0,
      takenMeanwhile: 0,
    });
    expect(await status()).toMatchObject({ waiting: 2, failed: 0, eta: { requestsLeft: 2 } });
    expect((await runCli(['queue', 'schedules'], { env })).stdout).toBe('no schedules\n');

    // Dropped, not done: enqueued again, the slices are new.
    expect(JSON.parse((await enqueue(a, '2026-11-12T00:00:00Z', '2026-11-14T23:00:00Z')).stdout)).toMatchObject({ added: 3, queued: 0, completed: 0 });

    const mistyped = await runCli(['queue', 'drop', 'alpah', '--yes'], { env });
    expect(mistyped.code).toBe(1);
    expect(mistyped.stderr).toContain('nothing to drop for the pipeline alpah (waiting, failed, schedules); the queue holds the pipelines alpha, beta (did you mean alpha?)');

    const onlyFailed = await runCli(['queue', 'drop', '--all', '--only', 'failed', '--yes'], { env });
    expect(onlyFailed.code).toBe(0);
    expect(onlyFailed.stderr).toContain('nothing to drop for every pipeline (failed)');

    const all = await runCli(['queue', 'drop', '--all', '--yes'], { env });
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toBe('dropped 5 waiting slices, 0 failed jobs\n');
    expect(await status()).toMatchObject({ waiting: 0, failed: 0, eta: { requestsLeft: 0 } });
  }, 90_000);

  it('a pipeline and --all, or neither, is a usage error; --all on another action too', async () => {
    const env = { QUOTELAKE_REDIS_URL: redis().url };
    const both = await runCli(['queue', 'drop', 'alpha', '--all', '--yes'], { env });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('queue drop: give a pipeline name or --all, not both');
    const neither = await runCli(['queue', 'drop', '--yes'], { env });
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('queue drop: name the pipeline whose jobs to drop, or give --all');
    // "queue status" shows counts, no names: the hint points where names are.
    expect(neither.stderr).toContain('hint: e.g. quotelake queue drop kline-backfill (the pipeline\'s own name, as the worker logs show it; "queue drop NAME" of a name the queue holds nothing of lists those it holds)');
    const elsewhere = await runCli(['queue', 'status', '--all'], { env });
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toContain('quotelake: --all goes with "queue drop", not "queue status"');
    // --yes confirms a drop only: elsewhere it would be ignored, which hides a slip.
    const [yes, several] = await Promise.all([runCli(['queue', 'status', '-y'], { env }), runCli(['queue', 'schedules', '--only', 'failed', '--yes'], { env })]);
    expect(yes.code).toBe(2);
    expect(yes.stderr).toContain('quotelake: --yes goes with "queue drop", not "queue status"');
    expect(yes.stdout).toBe('');
    expect(several.code).toBe(2);
    expect(several.stderr).toContain('quotelake: --only and --yes go with "queue drop", not "queue schedules"');
  }, 30_000);
});
