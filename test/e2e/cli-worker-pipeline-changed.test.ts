/**
 * A slice names its pipeline by a file each worker reads. A file edited between `enqueue` and the
 * run writes nothing: other transforms or sink stop that worker with the slice back on the queue
 * (another host may hold the file as queued), and enqueueing again gives the slices still queued
 * the file as it is now; another pipeline name fails the slice for good.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import { settleTokens, startRedisServer } from '../helpers/redis-server.js';
import { runCli, tempDir } from './helpers/cli.js';

const CLOCK = '2026-11-20T12:00:00Z';
const SPAN = ['--since', '2026-11-18T00:00:00Z', '--until', '2026-11-18T23:00:00Z', '--clock', CLOCK];

function writePipeline(file: string, name: string, sink: string): void {
  writeFileSync(file, [`name: ${name}`, 'source:', '  type: kline-history', '  codes: [BTCUSDT]', '  intervals: [1h]', 'transforms:', '  - type: parse-decimals', 'sink:', `  type: ${sink}`, ''].join('\n'));
}

/** A queue of its own (the tests run at once), the file and lake of one slice, enqueued. */
async function queued({ onTestFinished }: TestContext): Promise<{ env: Record<string, string>; file: string; output: string }> {
  const redis = await startRedisServer();
  // The test's own hook: the tests run at once, and the module's one may stop another test's server.
  onTestFinished(() => redis.stop());
  await settleTokens(redis.url, ['demo-professional']);
  const env = { QUOTELAKE_REDIS_URL: redis.url };
  const file = join(tempDir('ql-changed-p-'), 'changed.yaml');
  const output = tempDir();
  writePipeline(file, 'changed', 'parquet');
  expect((await runCli(['enqueue', file, ...SPAN, '--output', output], { env })).code).toBe(0);
  return { env, file, output };
}

async function status(env: Record<string, string>): Promise<Record<string, number>> {
  return JSON.parse((await runCli(['queue', 'status', '--json'], { env })).stdout) as Record<string, number>;
}

describe.concurrent('a pipeline file changed after enqueue', () => {
  it('another sink: the worker stops, the slice back on the queue, nothing written; enqueued again, it runs with the file as it is', async (context) => {
    const { env, file, output } = await queued(context);
    writePipeline(file, 'changed', 'arrow');
    const r = await runCli(['worker', '--until-empty', '--clock', CLOCK], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      `quotelake: worker stopped: ${file}: its transforms or sink changed since the slice was queued (pipeline "changed"); nothing was fetched or written; the slice went back to the queue`,
    );
    expect(r.stderr).not.toContain('failed for good');
    expect(existsSync(join(output, 'kline'))).toBe(false);
    expect(await status(env)).toMatchObject({ waiting: 1, failed: 0 });

    expect((await runCli(['enqueue', file, ...SPAN, '--output', output], { env })).stdout).toBe('changed: 1 slices (1 requests planned): 0 new, 1 already queued, 0 already done\n');
    const good = await runCli(['worker', '--until-empty', '--clock', CLOCK], { env });
    expect(good.code, good.stderr).toBe(0);
    expect(existsSync(join(output, '_quotelake/manifests/kline.arrow.json'))).toBe(true);
  }, 60_000);

  it('another pipeline name: the slice fails for good, nothing written; the file mended and enqueued again, it is retried', async (context) => {
    const { env, file, output } = await queued(context);
    writePipeline(file, 'renamed', 'parquet');
    const r = await runCli(['worker', '--until-empty', '--clock', CLOCK], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`failed for good (retrying cannot mend it): ${file}: the slice was queued for the pipeline "changed", and this file is now the pipeline "renamed"; nothing was fetched or written`);
    expect(existsSync(join(output, 'kline'))).toBe(false);

    writePipeline(file, 'changed', 'parquet');
    expect((await runCli(['enqueue', file, ...SPAN, '--output', output], { env })).stdout).toBe('changed: 1 slices (1 requests planned): 0 new, 0 already queued, 0 already done, 1 failed ones retried\n');
    const good = await runCli(['worker', '--until-empty', '--clock', CLOCK], { env });
    expect(good.code, good.stderr).toBe(0);
    expect(existsSync(join(output, '_quotelake/manifests/kline.parquet.json'))).toBe(true);
  }, 60_000);
});
