/**
 * depth-snapshot and trade-snapshot through the real runtime against answers a spec-valid service
 * may give and our emulator does not: a tick of a code nobody asked for, and one code's tick twice
 * under one `seq`. Nothing is stored that was not asked for, nothing is silently replaced, and an
 * identical repeat is one row.
 */
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '../api/helpers/stub-server.js';
import { run } from './helpers/run.js';
import { rejectedLines, startStubWorld, type StubWorld } from './helpers/stub-world.js';

const NOW = '2026-03-03T05:10:30.000Z';
const AT = String(Date.parse(NOW) - 1000);

let world: StubWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const trade = (code: string, seq: string, price = '1.5') => ({ code, seq, tick_time: AT, price, volume: '2', turnover: '3', trade_direction: 1 });
const depth = (code: string, seq: string, price = '1.5') => ({ code, seq, tick_time: AT, bids: [{ price, volume: '2' }], asks: [{ price: '1.6', volume: '3' }] });
const KINDS = [
  { kind: 'trade', tick: trade },
  { kind: 'depth', tick: depth },
] as const;

async function runOnce(kind: 'trade' | 'depth', answer: (asked: string[]) => unknown[]) {
  world = await startStubWorld(NOW, (req, res) => {
    const asked = (req.query!.data.symbol_list as { code: string }[]).map((s) => s.code);
    ok(res, req.query!.trace, { tick_list: answer(asked) });
  });
  const stdout = new PassThrough();
  const chunks: Buffer[] = [];
  stdout.on('data', (c: Buffer) => chunks.push(c));
  const { client, clock, outputDir } = world;
  const r = await run(
    { name: 'ticks', source: { type: `${kind}-snapshot`, codes: ['BTCUSDT', 'ETHUSDT'] }, transforms: [{ type: 'parse-decimals' }], sink: { type: 'ndjson' }, options: { onReject: 'divert' } },
    { client, clock, outputDir, stdout },
  );
  const rows = Buffer.concat(chunks).toString('utf8').trim().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { code: string; seq: string });
  return { r, rows, rejected: await rejectedLines(outputDir, kind) };
}

describe.each(KINDS)('$kind-snapshot: answers beyond what was asked', ({ kind, tick }) => {
  it('a tick of a code no request asked for is rejected naming the code, never stored', async () => {
    const { r, rows, rejected } = await runOnce(kind, (asked) => [...asked.map((c, i) => tick(c, String(10 + i))), tick('DOGEUSDT', '99')]);
    expect(rows.map((l) => l.code).sort()).toEqual(['BTCUSDT', 'ETHUSDT']);
    expect(rejected.map((l) => [l.code, l.field, l.value])).toEqual([['QL_ECHO_MISMATCH', 'code', 'DOGEUSDT']]);
    expect(rejected[0]!.reason).toContain(`not asked for in this round's /${kind}-tick requests`);
    expect(r.manifest.rows[kind]).toMatchObject({ received: 3, written: 2, rejected: 1 });
  });

  it('two different ticks of one code under one seq are both rejected; the other code is stored', async () => {
    const { rows, rejected } = await runOnce(kind, () => [tick('BTCUSDT', '10', '1.5'), tick('BTCUSDT', '10', '1.7'), tick('ETHUSDT', '11')]);
    expect(rows.map((l) => l.code)).toEqual(['ETHUSDT']);
    expect(rejected.map((l) => [l.code, l.field, l.value])).toEqual([
      ['QL_DUPLICATE_CONFLICT', 'seq', '10'],
      ['QL_DUPLICATE_CONFLICT', 'seq', '10'],
    ]);
    expect(rejected[0]!.reason).toContain('2 different ticks of BTCUSDT with seq 10 in one round');
  });

  it('a tick stamped after its answer came (a year-2100 trade, an hour ahead) is rejected, not filed decades ahead', async () => {
    const ahead = (code: string, ms: number) => ({ ...tick(code, '10'), tick_time: String(ms) });
    const { rows, rejected } = await runOnce(kind, () => [ahead('BTCUSDT', Date.parse('2100-01-01T00:00:00Z')), ahead('ETHUSDT', Date.parse(NOW) + 3_600_000), ahead('ETHUSDT', Date.parse(NOW) + 30_000)]);
    // Half a minute ahead is the service's clock running early: kept.
    expect(rows.map((l) => l.code)).toEqual(['ETHUSDT']);
    expect(rejected.map((l) => [l.code, l.field, l.value]).sort()).toEqual([
      ['QL_TICK_IN_FUTURE', 'tick_time', String(Date.parse(NOW) + 3_600_000)],
      ['QL_TICK_IN_FUTURE', 'tick_time', String(Date.parse('2100-01-01T00:00:00Z'))],
    ]);
    expect(rejected.map((l) => l.reason)).toContain('QL_TICK_IN_FUTURE: field tick_time: 2100-01-01T00:00:00.000Z is after the answer was received (2026-03-03T05:10:30.000Z)');
  });

  it('the same tick twice (another text of the same numbers) is one row, also where nothing merges (stdout)', async () => {
    // The repeat's level also carries a field nobody documented (R5): not a difference.
    const repeat = kind === 'depth' ? { ...depth('BTCUSDT', '10', '1.50'), bids: [{ price: '1.50', volume: '2.0', ext: 1 }] } : trade('BTCUSDT', '10', '1.50');
    const { r, rows, rejected } = await runOnce(kind, () => [tick('BTCUSDT', '10', '1.5'), tick('ETHUSDT', '11'), repeat]);
    expect(rows.map((l) => `${l.code} ${l.seq}`).sort()).toEqual(['BTCUSDT 10', 'ETHUSDT 11']);
    expect(rejected).toEqual([]);
    expect(r.shortfalls).toBe(0);
  });

  it('every code left out of the answers counts as one shortfall each, though one note names them all', async () => {
    const { r, rows } = await runOnce(kind, () => []);
    expect(rows).toEqual([]);
    expect(r.notes.filter((n) => n.includes('no data returned for BTCUSDT, ETHUSDT'))).toHaveLength(1);
    expect(r.shortfalls).toBe(2);
  });
});
