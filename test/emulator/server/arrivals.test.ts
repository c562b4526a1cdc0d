/** GET /_emulator/arrivals: each token's admitted arrival instants and its 429s, on a test clock only. */
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/core/clock.js';
import { ArrivalLog, MAX_ARRIVALS } from '../../../src/emulator/limits/arrival-log.js';
import { START, startHarness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const kline = { trace: 't', data: { code: 'BTCUSDT', kline_type: 1, kline_timestamp_end: 0, query_kline_num: 2, adjust_type: 0 } };

describe('GET /_emulator/arrivals', () => {
  it('lists the instants the limits admitted, in order, and counts what they refused, token redacted', async () => {
    h = await startHarness();
    const t0 = Date.parse(START);
    // demo-free: 1 request per 10 s. Admitted at t0, refused at t0 + 5 s, admitted at t0 + 10 s.
    for (const at of [0, 5000, 10_000]) {
      h.clock.set(t0 + at);
      await h.get('/quote-b-api/kline', { token: 'demo-free', query: JSON.stringify(kline) });
    }
    const r = await h.get('/_emulator/arrivals', { token: 'demo-free' });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ token: 'demo…', known: true, arrivals: { admitted: [t0, t0 + 10_000], dropped: 0, refused: { rate: 1, daily: 0 } } });
    expect((await h.get('/_emulator/arrivals', { token: 'demo-basic' })).json).toEqual({ token: 'demo…', known: true, arrivals: null });
  });

  it('does not exist on the real clock', async () => {
    h = await startHarness({ clock: systemClock as never });
    expect((await h.get('/_emulator/arrivals', { token: 'demo-free' })).status).toBe(404);
  });
});

describe('ArrivalLog', () => {
  it('stays within its bound, dropping the oldest half and counting them', () => {
    const log = new ArrivalLog();
    for (let i = 0; i <= MAX_ARRIVALS; i++) log.admitted('t', i);
    const view = log.view('t')!;
    expect(view.dropped).toBe(MAX_ARRIVALS / 2);
    expect(view.admitted).toHaveLength(MAX_ARRIVALS / 2 + 1);
    expect(view.admitted[0]).toBe(MAX_ARRIVALS / 2);
    expect(view.admitted.at(-1)).toBe(MAX_ARRIVALS);
  });
});
