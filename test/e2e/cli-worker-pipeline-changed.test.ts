/**
 * A slice names its pipeline by a file each worker reads: a file edited between `enqueue` and the
 * run (another format, another name) fails the slice at once with a clear line, and nothing is
 * written; enqueueing again with the file mended retries it with that file.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { settleTokens, startRedisServer } from '../helpers/redis-server.js';
import { runCli, tempDir } from './helpers/cli.js';

const CLOCK = '2026-11-20T12:00:00Z';
const SPAN = ['--since', '2026-11-18T00:00:00Z', '--until', '2026-11-18T23:00:00Z', '--clock', CLOCK];

function writePipeline(file: string, name: string, sink: string): void {
  writeFileSync(file, [`name: ${name}`, 'source:', '  type: kline-history', '  codes: [BTCUSDT]', '  intervals: [1h]', 'transforms:', '  - type: parse-decimals', 'sink:', `  type: ${sink}`, ''].join('\n'));
}

describe.concurrent('a pipeline file changed after enqueue', () => {
  it.each([
    ['another sink', 'changed', 'arrow', 'its transforms or sink changed since the slice was queued (pipeline "changed")'],
    ['another name', 'renamed', 'parquet', 'the slice was queued for the pipeline "changed", and this file is now the pipeline "renamed"'],
  ])('%s: the slice fails at once, nothing is written; enqueued again once mended, it runs', async (_case, name, sink, said) => {
    // A queue of its own per case: the cases run at once.
    const redis = await startRedisServer();
    onTestFinished(() => redis.stop());
    await settleTokens(redis.url, ['demo-professional']);
    const env = { QUOTELAKE_REDIS_URL: redis.url };
    const file = join(tempDir('ql-changed-p-'), 'changed.yaml');
    const output = tempDir();
    writePipeline(file, 'changed', 'parquet');
    expect((await runCli(['enqueue', file, ...SPAN, '--output', output], { env })).code).toBe(0);
    writePipeline(file, name, sink);
    const r = await runCli(['worker', '--until-empty', '--clock', CLOCK], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`failed for good (retrying cannot mend it): ${file}: ${said}; nothing was fetched or written`);
    expect(existsSync(join(output, 'kline'))).toBe(false);

    writePipeline(file, 'changed', 'parquet');
    const again = await runCli(['enqueue', file, ...SPAN, '--output', output], { env });
    expect(again.stdout).toBe('changed: 1 slices (1 requests planned): 0 new, 0 already queued, 0 already done, 1 failed ones retried\n');
    const good = await runCli(['worker', '--until-empty', '--clock', CLOCK], { env });
    expect(good.code, good.stderr).toBe(0);
    expect(existsSync(join(output, '_quotelake/manifests/kline.parquet.json'))).toBe(true);
  }, 60_000);
});
