/**
 * repair keeps a Delta table's own errors, as compact and a run do: a damaged log is QL_DELTA_LOG
 * (with its fix: restore the log file), not a generic commit failure whose hint says to run the
 * same command again, which repair can never get past.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DeltaLogError } from '../../src/core/errors.js';
import type { PartitionedSink } from '../../src/lake/commit/partitioned-sink.js';
import { repairLake } from '../../src/lake/repair-lake.js';
import { localStorage } from '../../src/lake/storage/local-storage.js';
import { klineRows, rawKline, T0 } from '../sinks/fixtures.js';
import { runContext, tempDir } from '../sinks/helpers.js';
import { deltaKlineSink } from './delta/delta-kline-sink.js';

const opened: PartitionedSink<unknown>[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function deltaTableWithOneBar(): Promise<string> {
  const out = await tempDir('ql-repair-codes-');
  const s = deltaKlineSink(out);
  opened.push(s);
  await s.recover(runContext('r1'));
  await s.write({ stream: 'k', seq: 1, records: klineRows([rawKline('BTCUSDT', '1m', T0, '100.5')]) }, runContext('r1'));
  await s.commit(runContext('r1'));
  return out;
}

describe('repair on a Delta table whose log is damaged', () => {
  it.each([true, false])('dry run %s: QL_DELTA_LOG naming the log file, not a generic commit failure', async (dryRun) => {
    const out = await deltaTableWithOneBar();
    await writeFile(join(out, 'kline/_delta_log/00000000000000000000.json'), 'not json\n');
    const error = await repairLake(out, { ctx: runContext('repair'), dryRun, storage: localStorage(out) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeltaLogError);
    expect(error).toMatchObject({ code: 'QL_DELTA_LOG', message: 'kline: version 0 (kline/_delta_log/00000000000000000000.json), line 1: not JSON' });
  });
});
