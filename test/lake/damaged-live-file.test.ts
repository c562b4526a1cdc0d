/**
 * A live file of the lake that a commit must merge with is damaged or gone: the run fails naming
 * the file and what to do (the decoder's "Corrupt footer" alone named nothing), and commits nothing.
 */
import { readdir, rm, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { describeError } from '../../src/cli/describe-error.js';
import { SinkError } from '../../src/core/errors.js';
import { startWorld, type World } from '../sources/helpers/world.js';
import { run } from '../sources/helpers/run.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const pipeline = {
  name: 'btc',
  source: { type: 'kline-history', codes: ['BTCUSDT'], intervals: ['1m'], since: '2026-03-03T00:00:00Z' },
  transforms: [{ type: 'parse-decimals' }],
  sink: { type: 'parquet' },
};

describe('a damaged or missing live file', () => {
  it.each(['damaged', 'missing'])('%s: the next commit into its partition fails naming it, with the way out', async (harm) => {
    world = await startWorld('2026-03-03T12:00:30.000Z');
    const client = world.client('professional');
    const outputDir = join(world.dir, harm);
    await run(pipeline, { client, clock: world.clock, outputDir });
    const folder = join(outputDir, 'kline/interval=1m/year=2026/date=2026-03-03');
    const [name] = await readdir(folder);
    if (harm === 'damaged') await truncate(join(folder, name!), 1000);
    else await rm(join(folder, name!));
    world.clock.set('2026-03-03T12:30:30.000Z');
    const error = await run(pipeline, { client, clock: world.clock, outputDir }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SinkError);
    const message = (error as Error).message;
    expect(message).toContain(`kline/interval=1m/year=2026/date=2026-03-03/${name}`);
    expect(message).toMatch(harm === 'damaged' ? /cannot be read, the file is damaged \(.*Parquet/ : /is listed but missing/);
    expect(describeError(error).hint).toMatch(/restore it from a backup/);
  });
});
