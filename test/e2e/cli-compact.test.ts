/** `quotelake compact` through the built CLI: --dry-run changes nothing, then it compacts, and it respects the output lock. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { DEFAULT_DECIMAL } from '../../src/core/decimal.js';
import type { KlineRow } from '../../src/core/records.js';
import { PartitionedSink } from '../../src/lake/commit/partitioned-sink.js';
import { klineSpec } from '../../src/lake/datasets/kline.js';
import { parquetEncoder } from '../../src/lake/parquet/parquet-encoder.js';
import { acquireOutputLock } from '../../src/runtime/output-lock.js';
import { klineRows, rawKline, T0 } from '../sinks/fixtures.js';
import { runContext } from '../sinks/helpers.js';
import { runCli, tempDir } from './helpers/cli.js';

/** Three runs of 100 minutes of two codes, committed with a 50-row target: 12 files of 50 rows in one partition. */
async function smallFileLake(): Promise<string> {
  const out = tempDir();
  for (let run = 0; run < 3; run++) {
    const sink = new PartitionedSink<KlineRow>({ outputDir: out, spec: klineSpec, encoder: parquetEncoder({ rowGroupRows: 131072 }), decimal: DEFAULT_DECIMAL, maxRowsPerFile: 50, maxBufferedRows: 100_000, maxBufferedBytes: 1 << 30 });
    const ctx = { ...runContext(`r${run}`), clock: new ManualClock('2026-11-21T14:30:00Z') };
    const raw = [];
    for (const code of ['BTCUSDT', 'ETHUSDT']) for (let m = run * 100; m < run * 100 + 100; m++) raw.push(rawKline(code, '1m', T0 + 60 * m, `${m}`));
    await sink.write({ stream: 'k', seq: 1, records: klineRows(raw) }, ctx);
    await sink.commit(ctx);
    await sink.close();
  }
  return out;
}

const tree = (out: string) => JSON.stringify([readdirSync(out, { recursive: true }).sort(), readFileSync(join(out, '_quotelake/manifests/kline.parquet.json'), 'utf8')]);

describe('quotelake compact', () => {
  it('--dry-run prints the plan and changes nothing; then compacts to one file', async () => {
    const out = await smallFileLake();
    const before = tree(out);
    const plan = await runCli(['compact', '--output', out, '--dry-run']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/^kline\.parquet: 12 → 1 files, 600 rows in 1 partitions \(would compact 1\); [\d.]+ MB → ~[\d.]+ MB; would delete 0 retired files past the grace\n$/);
    expect(tree(out)).toBe(before);
    const done = await runCli(['compact', '--output', out, '--dataset', 'kline', '--grace', '0']);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/^kline\.parquet: 12 → 1 files, 600 rows in 1 partitions \(compacted 1\)/);
    const manifest = JSON.parse(readFileSync(join(out, '_quotelake/manifests/kline.parquet.json'), 'utf8')) as { files: { rows: number }[]; retired: unknown[] };
    expect(manifest.files.map((f) => f.rows)).toEqual([600]);
    // --grace 0: the replaced files went with the commit that replaced them.
    expect(manifest.retired).toEqual([]);
    expect(readdirSync(out, { recursive: true }).filter((f) => String(f).endsWith('.parquet')).length).toBe(1);
    expect(readdirSync(out).sort()).toEqual(['_quotelake', 'kline']);
  }, 60_000);

  it('fails while a run holds the output, and names an unknown dataset', async () => {
    const out = await smallFileLake();
    const lock = await acquireOutputLock(out, { runId: 'other', pipeline: 'busy', now: new Date('2026-11-21T14:30:00Z') });
    try {
      const r = await runCli(['compact', '--output', out]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain('in use by run other of pipeline busy');
    } finally {
      await lock.release();
    }
    const bad = await runCli(['compact', '--output', out, '--dataset', 'candles']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('unknown dataset "candles"');
  }, 60_000);
});
