/**
 * `enqueue pipelines/x.yaml` names the file relative to the folder it ran in; the slices carry the
 * file it found, absolute, beside the argument. A worker started in any folder finds the file
 * there; where that path is not (another host), the argument from the worker's own folder (the same
 * checkout elsewhere) serves if it is the same pipeline; where neither is, the worker writes
 * nothing and stops with the slice back on the queue, naming both places.
 */
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import { settleTokens, startRedisServer } from '../helpers/redis-server.js';
import { runCli, startCli, tempDir } from './helpers/cli.js';

const CLOCK = '2026-11-20T12:00:00Z';
const SPAN = ['--since', '2026-11-18T00:00:00Z', '--until', '2026-11-18T23:00:00Z', '--clock', CLOCK];

function writePipeline(folder: string, sink = 'parquet'): void {
  mkdirSync(join(folder, 'pipelines'), { recursive: true });
  const text = ['name: moved', 'source:', '  type: kline-history', '  codes: [BTCUSDT]', '  intervals: [1h]', 'transforms:', '  - type: parse-decimals', 'sink:', `  type: ${sink}`, ''];
  writeFileSync(join(folder, 'pipelines/moved.yaml'), text.join('\n'));
}

/** A queue of its own; a checkout folder holding pipelines/moved.yaml, enqueued from there by its relative path. */
async function queued({ onTestFinished }: TestContext, how: string[] = SPAN): Promise<{ env: Record<string, string>; checkout: string; output: string }> {
  const redis = await startRedisServer();
  onTestFinished(() => redis.stop());
  await settleTokens(redis.url, ['demo-professional']);
  const env = { QUOTELAKE_REDIS_URL: redis.url };
  const checkout = join(tempDir('ql-checkout-'), 'repo');
  writePipeline(checkout);
  const output = tempDir();
  const r = await runCli(['enqueue', 'pipelines/moved.yaml', ...how, '--output', output], { env, cwd: checkout });
  expect(r.code, r.stderr).toBe(0);
  return { env, checkout, output };
}

async function status(env: Record<string, string>): Promise<Record<string, number>> {
  return JSON.parse((await runCli(['queue', 'status', '--json'], { env })).stdout) as Record<string, number>;
}

describe.concurrent('a pipeline enqueued by a relative path', () => {
  it('a worker started in another folder runs it from the file enqueue read', async (context) => {
    const { env, output } = await queued(context);
    const r = await runCli(['worker', '--until-empty', '--clock', CLOCK], { env, cwd: tempDir('ql-elsewhere-') });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(output, '_quotelake/manifests/kline.parquet.json'))).toBe(true);
    expect(await status(env)).toMatchObject({ waiting: 0, completed: 1, failed: 0 });
  }, 60_000);

  it('the checkout under another folder (another host): a worker started in it finds the same pipeline by the relative path', async (context) => {
    const { env, checkout, output } = await queued(context);
    const elsewhere = join(tempDir('ql-host-b-'), 'srv');
    renameSync(checkout, elsewhere);
    const r = await runCli(['worker', '--until-empty', '--clock', CLOCK], { env, cwd: elsewhere });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(output, '_quotelake/manifests/kline.parquet.json'))).toBe(true);
  }, 60_000);

  it('neither place holds it: the worker stops naming both, the slice back on the queue and nothing written', async (context) => {
    const { env, checkout, output } = await queued(context);
    const gone = `${checkout}-gone`;
    renameSync(checkout, gone);
    const stranger = tempDir('ql-stranger-');
    const r = await runCli(['worker', '--until-empty', '--clock', CLOCK], { env, cwd: stranger });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      `quotelake: worker stopped: the pipeline "moved" is not on this worker: ${checkout}/pipelines/moved.yaml: no such file here; "pipelines/moved.yaml" from ${stranger}: no such pipeline file or name; nothing was fetched or written; the slice went back to the queue`,
    );
    expect(r.stderr).toContain(`hint: start the worker where ${checkout}/pipelines/moved.yaml can be read, or in a folder where "pipelines/moved.yaml" names that pipeline`);
    expect(r.stderr).not.toContain('failed for good');
    expect(existsSync(join(output, 'kline'))).toBe(false);
    expect(await status(env)).toMatchObject({ waiting: 1, failed: 0 });
  }, 60_000);

  it('the relative path names another version of the pipeline (another sink): nothing runs, the slice goes back', async (context) => {
    const { env, checkout, output } = await queued(context);
    renameSync(checkout, `${checkout}-gone`);
    const other = tempDir('ql-other-version-');
    writePipeline(other, 'arrow');
    const r = await runCli(['worker', '--until-empty', '--clock', CLOCK], { env, cwd: other });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${checkout}/pipelines/moved.yaml: no such file here; pipelines/moved.yaml: its transforms or sink changed since the slice was queued (pipeline "moved"); nothing was fetched or written`);
    expect(existsSync(join(output, 'kline'))).toBe(false);
    expect(await status(env)).toMatchObject({ waiting: 1, failed: 0 });
  }, 60_000);

  it('a schedule fires on a worker started in another folder', async (context) => {
    const { env } = await queued(context, ['--since', '2026-11-18T00:00:00Z', '--until', '2026-11-18T23:00:00Z', '--every', '* * * * * *', '--name', 'each-second', '--clock', CLOCK]);
    const worker = startCli(['worker', '--clock', CLOCK, '--log-level', 'info'], { env, cwd: tempDir('ql-elsewhere-') });
    await worker.waitForStderr(/slice done:/);
    expect((await runCli(['queue', 'unschedule', 'each-second'], { env })).code).toBe(0);
    worker.child.kill('SIGTERM');
    expect((await worker.result).code).toBe(130);
    expect(worker.stderr()).not.toMatch(/failed/);
  }, 60_000);
});
