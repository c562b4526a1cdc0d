/**
 * An answer's totalCount against the records delivered: fewer, beyond what announcements made
 * while paging explain, is a shortfall (exit 4), never a quiet success.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/api/index.js';
import type { RawHalt } from '../../src/core/records.js';
import { tradingHalts, tradingHaltsConfigSchema } from '../../src/sources/trading-halts/index.js';
import { useStubClient } from '../api/helpers/stub-client.js';
import { json } from '../api/helpers/stub-server.js';
import { drain } from './helpers/world.js';

const fixture = useStubClient('ql-halt-count-');

/** NYSE halt records, newest first, as the service lists them. */
const record = (i: number) => ({
  symbol: `S${i}`,
  haltReason: 'News pending',
  haltDate: '2026-01-02',
  haltTime: '10:15:00',
  haltDateTime: `2026-01-02 10:${String(15 + i).padStart(2, '0')}:00`,
  resumeDate: null,
  resumeTime: '',
  resumeDateTime: null,
  sourceExchange: 'NYSE',
  publishDate: '2026-01-02 10:10:00',
});
const answer = (data: unknown[], totalCount: number, extra: object = {}) => ({ success: true, timestamp: '2026-01-05T10:00:00', totalCount, data, ...extra });

const env = (client: ServiceClient) => ({ outputDir: fixture.stateDir(), stateDir: fixture.stateDir(), stdout: new PassThrough(), client });
const source = (client: ServiceClient, pageSize?: number) =>
  tradingHalts.create(tradingHaltsConfigSchema.parse({ exchanges: ['nyse'], ...(pageSize !== undefined ? { pageSize } : {}) }), env(client));

describe('trading-halts: the records the service counts', () => {
  it('one answer that holds fewer records than its totalCount: a shortfall naming both counts', async () => {
    const { client, clock } = await fixture.setup((_req, res) => json(res, answer([0, 1, 2].map(record), 5)));
    const run = await drain<RawHalt>(source(client), clock);
    expect(run.records).toHaveLength(3);
    const snap = run.events.snapshot();
    expect(snap.shortfalls).toBe(1);
    expect(snap.notes).toContain('trading-halts nyse: the service counts 5 record(s) and delivered 3; 2 not delivered (the next run asks again)');
    await client.close();
  });

  it('pages each short of a record while the count stands still: a shortfall', async () => {
    const all = [0, 1, 2, 3, 4, 5].map(record);
    const { client, clock } = await fixture.setup((req, res) => {
      const page = Number(req.url.searchParams.get('page'));
      // Two records a page, the second of each page left out.
      json(res, answer(all.slice((page - 1) * 2, (page - 1) * 2 + 1), 6, { totalPages: 3, currentPage: page, currentSize: 2 }));
    });
    const run = await drain<RawHalt>(source(client, 2), clock);
    expect(run.records).toHaveLength(3);
    expect(run.events.snapshot().shortfalls).toBe(1);
    expect(run.events.snapshot().notes).toContain('trading-halts nyse: the service counts 6 record(s) and delivered 3 in pages of 2; 3 not delivered (the next run asks again)');
    await client.close();
  });

  it('a record announced while paging pushes one across a page boundary: a note, no shortfall', async () => {
    const before = [1, 2, 3, 4].map(record);
    const after = [record(0), ...before];
    const { client, clock } = await fixture.setup((req, res) => {
      const page = Number(req.url.searchParams.get('page'));
      // Page 1 read before the new record; pages 2 and 3 after it (all shifted down by one).
      const list = page === 1 ? before : after;
      json(res, answer(list.slice((page - 1) * 2, page * 2), list.length, { totalPages: Math.ceil(list.length / 2), currentPage: page, currentSize: 2 }));
    });
    const run = await drain<RawHalt>(source(client, 2), clock);
    // S1..S4 delivered (S2 twice, once on each side of the boundary); S0 is for the next run.
    expect(new Set(run.records.map((r) => r.record.symbol))).toEqual(new Set(['S1', 'S2', 'S3', 'S4']));
    const snap = run.events.snapshot();
    expect(snap.shortfalls).toBe(0);
    expect(snap.notes).toContain('trading-halts nyse: 1 record(s) moved between pages while paging (1 new announcement(s) meanwhile); the next run picks them up');
    await client.close();
  });
});
