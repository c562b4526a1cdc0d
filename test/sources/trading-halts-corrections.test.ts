/**
 * trading-halts against services the emulator does not play: one that ignores page and size
 * (spec 4.5 rule 2 leaves it open) and one that corrects a record (its wire type, a padded value).
 */
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/api/index.js';
import { readHaltRows } from '../../src/coverage/index.js';
import type { RawHalt } from '../../src/core/records.js';
import { haltContentHash } from '../../src/sources/trading-halts/halt-key.js';
import { tradingHalts, tradingHaltsConfigSchema } from '../../src/sources/trading-halts/index.js';
import { useStubClient } from '../api/helpers/stub-client.js';
import { json } from '../api/helpers/stub-server.js';
import { run } from './helpers/run.js';
import { drain } from './helpers/world.js';

const fixture = useStubClient('ql-halt-fix-');

const record = (i: number) => ({
  symbol: `S${i}`,
  haltReason: 'News pending',
  haltDateTime: `2026-01-02 10:${String(15 + i).padStart(2, '0')}:00`,
  sourceExchange: 'NYSE',
  publishDate: '2026-01-02 10:10:00',
});
const answer = (data: unknown[], extra: object = {}) => ({ success: true, timestamp: '2026-01-05T10:00:00', totalCount: data.length, data, ...extra });
const env = (client: ServiceClient) => ({ outputDir: fixture.stateDir(), stateDir: fixture.stateDir(), stdout: new PassThrough(), client });

describe('trading-halts: services that differ from the emulator', () => {
  it('a service that ignores page and size (the whole year, no paging fields): one request, not one per page', async () => {
    const all = [0, 1, 2, 3, 4].map(record);
    const { client, clock, requests } = await fixture.setup((_req, res) => json(res, answer(all)));
    const src = tradingHalts.create(tradingHaltsConfigSchema.parse({ exchanges: ['nyse'], pageSize: 1 }), env(client));
    const run = await drain<RawHalt>(src, clock);
    expect(requests).toHaveLength(1);
    expect(run.records).toHaveLength(5);
    expect(run.events.snapshot().shortfalls).toBe(0);
    await client.close();
  });

  it('a field sent as a JSON number (rejected downstream) and then corrected to text is a changed record', () => {
    const rejected = { ...record(0), pauseThresholdPrice: 145.5 } as never;
    const corrected = { ...record(0), pauseThresholdPrice: '145.5' };
    expect(haltContentHash(rejected)).not.toBe(haltContentHash(corrected));
    // S4 still holds: null, "" and absent are one content.
    expect(haltContentHash({ ...record(0), haltReason: null } as never)).toBe(haltContentHash({ ...record(0), haltReason: '' }));
    const { haltReason: _r, ...absent } = record(0);
    expect(haltContentHash(absent as never)).toBe(haltContentHash({ ...record(0), haltReason: '' }));
  });

  // normalize-halts rejects a padded or blank-only value (it is not S4's "no value"): its correction must be written.
  it.each([
    [' 145.50', '145.50'],
    ['145.50 ', '145.50'],
    ['   ', null],
  ])('a pauseThresholdPrice of %j corrected to %j on the next run is a changed record', async (sent, corrected) => {
    let price: string | null = sent;
    const answerNow = () => answer([{ ...record(0), pauseThresholdPrice: price }]);
    const { client, clock } = await fixture.setup((_req, res) => json(res, answerNow()));
    const src = tradingHalts.create(tradingHaltsConfigSchema.parse({ exchanges: ['nasdaq'] }), env(client));
    const first = await drain<RawHalt>(src, clock);
    expect(first.records.map((r) => r.record)).toEqual([{ ...record(0), pauseThresholdPrice: sent }]);
    price = corrected;
    clock.advance(60_000);
    const second = await drain<RawHalt>(src, clock, first.checkpoints);
    expect(second.records.map((r) => r.record)).toEqual([{ ...record(0), pauseThresholdPrice: corrected }]);
    await client.close();
  });

  it('a symbol sent with a blank around it is rejected, and its correction is the one halt the lake holds', async () => {
    let symbol = 'GOOGL ';
    const { client, clock } = await fixture.setup((_req, res) => json(res, answer([{ ...record(0), symbol }])));
    const outputDir = join(fixture.stateDir(), 'out');
    const pipeline = { name: 'padded', source: { type: 'trading-halts', exchanges: ['nyse'] }, transforms: [{ type: 'normalize-halts' }], sink: { type: 'parquet', retiredGraceMs: 0 } };
    const first = await run(pipeline, { client, clock, outputDir });
    expect(first.manifest.rejected).toBe(1);
    symbol = 'GOOGL';
    clock.advance(60_000);
    await run(pipeline, { client, clock, outputDir });
    expect((await readHaltRows(outputDir)).map((r) => [r.symbol, r.halt_local])).toEqual([['GOOGL', '2026-01-02 10:15:00']]);
    await client.close();
  });
});
