/**
 * A compaction SIGKILLed while it wrote its commit journal leaves the journal's temp file in
 * `_quotelake/staging/<compact run>/` beside its staged files. The next `compact` (which recovers
 * each table, as a run does) must clear both: a quiet lake that is only ever compacted would
 * otherwise keep the debris for good. An Arrow lake, as that is where it was first seen.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { DEFAULT_DECIMAL } from '../../src/core/decimal.js';
import type { KlineRow } from '../../src/core/records.js';
import { arrowEncoder } from '../../src/lake/arrow/arrow-encoder.js';
import { readManifest } from '../../src/lake/commit/manifest.js';
import { PartitionedSink } from '../../src/lake/commit/partitioned-sink.js';
import { compactLake } from '../../src/lake/compact-lake.js';
import { klineSpec } from '../../src/lake/datasets/kline.js';
import { klineRows, rawKline, T0 } from '../sinks/fixtures.js';
import { runContext, tempDir } from '../sinks/helpers.js';
import { allFiles } from '../helpers/all-files.js';

const T_DAY = T0 - (T0 % 86400);
const opened: PartitionedSink<KlineRow>[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

/** An Arrow kline lake of 10 files of 30 rows in one partition (runs r0..r9). */
async function smallFileArrowLake(): Promise<string> {
  const out = await tempDir('ql-compact-journal-temp-');
  for (let run = 0; run < 10; run++) {
    const sink = new PartitionedSink<KlineRow>({
      outputDir: out,
      spec: klineSpec,
      encoder: arrowEncoder(),
      decimal: DEFAULT_DECIMAL,
      maxRowsPerFile: 30,
      maxBufferedRows: 1000,
      maxBufferedBytes: 1 << 30,
    });
    opened.push(sink);
    const ctx = { ...runContext(`r${run}`), clock: new ManualClock('2026-11-21T14:30:00Z') };
    const raw = Array.from({ length: 30 }, (_, i) => rawKline('BTCUSDT', '1m', T_DAY + 60 * (run * 30 + i), `${run}.${i}`));
    await sink.write({ stream: 'k', seq: 1, records: klineRows(raw) }, ctx);
    await sink.commit(ctx);
  }
  return out;
}

describe('compact after a compaction killed while writing its journal', () => {
  it('removes the journal temp file and the staged files the killed compaction left; rows unchanged', async () => {
    const out = await smallFileArrowLake();
    // What the killed compaction left: a staged file and the half-written temp of its journal.
    const killed = join(out, '_quotelake/staging/compact-20261121T143000000Z-dead01');
    await mkdir(join(killed, 'kline-arrow'), { recursive: true });
    await writeFile(join(killed, 'kline-arrow', 'part-compact-20261121T143000000Z-dead01-00001.arrow'), 'ARROW1 half');
    await writeFile(join(killed, '.kline.arrow.journal.json.tmp-4242-0badf00d'), '{"version":1,"runId":"compact-');

    const clock = new ManualClock('2026-11-21T15:00:00Z');
    const [report] = await compactLake(out, { ctx: { ...runContext('compact-2'), clock }, dryRun: false, retiredGraceMs: 0 });
    expect(report).toEqual(expect.objectContaining({ dataset: 'kline', format: 'arrow', filesBefore: 10, filesAfter: 1, rows: 300 }));

    const left = allFiles(out).map((f) => relative(out, f)).filter((f) => f.startsWith('_quotelake/')).sort();
    expect(left).toEqual(['_quotelake/manifests/kline.arrow.json']);
    // The compacted file holds every row once, read by apache-arrow.
    const manifest = (await readManifest(out, 'kline', 'arrow'))!;
    expect(manifest.files.map((f) => f.rows)).toEqual([300]);
    const table = tableFromIPC(await readFile(join(out, 'kline', manifest.files[0]!.path)));
    expect(table.numRows).toBe(300);
    const ts = table.getChild('ts')!.toArray() as ArrayLike<number | bigint>;
    expect(new Set(Array.from(ts, Number)).size).toBe(300);
  });
});
