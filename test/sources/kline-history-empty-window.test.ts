/** A plan of no request says why, in the words the run's note uses: never a silent "0". */
import { describe, expect, it } from 'vitest';
import { klineHistoryConfigSchema } from '../../src/sources/kline-history/index.js';
import { planKlineHistory } from '../../src/sources/kline-history/plan-kline-history.js';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const plan = (window: Record<string, string>) =>
  planKlineHistory(klineHistoryConfigSchema.parse({ codes: ['BTCUSDT'], intervals: ['1m'], ...window }), { nowMs: NOW, spanFromMs: NOW, checkpoints: new Map() });

describe('kline-history plan of an empty window', () => {
  it('a since still to come: no request, and the note says so', () => {
    const p = plan({ since: '2026-12-01' });
    expect(p.groups.reduce((n, g) => n + g.requests, 0)).toBe(0);
    expect(p.notes).toContain('nothing to do yet: since (2026-12-01 = 2026-12-01T00:00:00Z) is in the future (now 2026-11-20T12:00:00Z); the run would send no request');
  });

  it('a window with bars in it: no such note, an until equal to since included (both bounds hold: its one bar)', () => {
    expect(plan({ since: '2026-11-19' }).notes.filter((n) => n.startsWith('nothing to do'))).toEqual([]);
    const one = plan({ since: '2026-11-19', until: '2026-11-19' });
    expect(one.streams.map((s) => s.records)).toEqual([1]);
    expect(one.notes.filter((n) => n.startsWith('nothing to do'))).toEqual([]);
  });
});
