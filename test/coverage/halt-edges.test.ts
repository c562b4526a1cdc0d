import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { barOpens } from '../../src/catalog/bar-grid.js';
import { findProduct } from '../../src/catalog/index.js';
import { coverageOfOutput, coverageReport, type KlineLike } from '../../src/coverage/index.js';
import { startWorld, type World } from '../sources/helpers/world.js';
import { run } from '../sources/helpers/run.js';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('coverage: halts resumed on a date without a time', () => {
  // 600000.SH daily bars of March 2026; the bars of 3 and 4 March (Shanghai) are missing for a halt
  // announced with haltDate 2026-03-03 and resumeDate 2026-03-05 but no haltTime and no resumeTime
  // (spec 2.4: both nullable), and the bar of 12 March is missing with no halt at all.
  const p = findProduct('600000.SH')!;
  const lost = new Set([Date.parse('2026-03-02T16:00:00Z'), Date.parse('2026-03-03T16:00:00Z'), Date.parse('2026-03-11T16:00:00Z')]);
  const rows: KlineLike[] = [...barOpens(p, '1d', Date.parse('2026-02-28T00:00:00Z'), Date.parse('2026-03-20T00:00:00Z'))]
    .filter((t) => !lost.has(t))
    .map((ts) => ({ code: '600000.SH', interval: '1d', ts }));
  const halt = { exchange: 'sse' as const, symbol: '600000', halt_at: null, halt_local: '2026-03-03', resume_trade_at: null, resume_quote_at: null, resume_local: '2026-03-05' };

  it('explains the halted days only: a bar lost after the resumption date is unexplained', () => {
    const s = coverageReport(rows, { halts: [halt] }).series[0]!;
    expect(s.counts).toMatchObject({ halted: 1, unexplained: 1 });
    const unexplained = s.gaps.find((g) => g.reason === 'unexplained')!;
    expect(unexplained.firstUnexplained).toBe(Date.parse('2026-03-11T16:00:00Z'));
  });

  it('a halt with no resumption at all still explains everything after it', () => {
    const s = coverageReport(rows, { halts: [{ ...halt, resume_local: null }] }).series[0]!;
    expect(s.counts).toMatchObject({ halted: 2, unexplained: 0 });
  });
});

describe('coverage: the halt dataset in another format than the K-lines', () => {
  it('is used (Parquet K-lines, Arrow halts in the same output)', async () => {
    world = await startWorld('2026-03-04T12:00:00.000Z');
    const w = world;
    const client = w.client('professional');
    const outputDir = join(w.dir, 'out');
    await run(
      { name: 'k', source: { type: 'kline-history', codes: ['AAPL.US'], intervals: ['1d'], since: '2026-02-20' }, transforms: [{ type: 'parse-decimals' }], sink: { type: 'parquet' } },
      { client, clock: w.clock, outputDir },
    );
    w.clock.advance(60_000);
    await run(
      { name: 'h', source: { type: 'trading-halts' }, transforms: [{ type: 'normalize-halts' }], sink: { type: 'arrow' } },
      { client, clock: w.clock, outputDir },
    );
    const report = await coverageOfOutput(outputDir);
    expect(report.haltsUsed).toBe(true);
  }, 60_000);
});
