import { afterEach, describe, expect, it } from 'vitest';
import { shiftedClock, systemClock } from '../../../src/core/clock.js';
import { CLOCK_MAX_MS, MAX_ADVANCE_MS } from '../../../src/emulator/routes/clock-route.js';
import { START, startHarness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('admin clock endpoint', () => {
  it('reads, sets and advances a manual clock', async () => {
    h = await startHarness();
    expect((await h.get('/_emulator/clock')).json).toEqual({ now: START, nowMs: Date.parse(START) });
    const set = await h.raw('/_emulator/clock', { method: 'POST', body: JSON.stringify({ set: '2026-05-01T12:00:00Z' }) });
    expect(set.json).toEqual({ now: '2026-05-01T12:00:00.000Z', nowMs: Date.parse('2026-05-01T12:00:00Z') });
    const adv = await h.raw('/_emulator/clock', { method: 'POST', body: JSON.stringify({ advanceMs: 1500 }) });
    expect(adv.json.now).toBe('2026-05-01T12:00:01.500Z');
    expect(h.clock.now()).toBe(Date.parse('2026-05-01T12:00:01.500Z'));
    for (const bad of ['nope', '{"set":"yesterday"}', '{"advanceMs":"5"}', '{}']) {
      const r = await h.raw('/_emulator/clock', { method: 'POST', body: bad });
      expect(r.status).toBe(400);
      expect(r.json.error).toMatch(/set|advanceMs/);
    }
    const del = await h.raw('/_emulator/clock', { method: 'DELETE' });
    expect(del.status).toBe(405);
    expect(del.headers.allow).toBe('GET, POST');
  });
  it("works the same on a user's own virtual clock (any object with now and set), no class required", async () => {
    let ms = Date.parse(START);
    const own = { now: () => ms, set: (to: number) => void (ms = to) };
    h = await startHarness({ clock: own as never });
    expect((await h.get('/_emulator/clock')).json).toEqual({ now: START, nowMs: Date.parse(START) });
    await h.raw('/_emulator/clock', { method: 'POST', body: JSON.stringify({ set: '2026-05-01T12:00:00Z' }) });
    expect(ms).toBe(Date.parse('2026-05-01T12:00:00Z'));
  });
  it('does not exist on the system clock', async () => {
    h = await startHarness({ clock: systemClock as never });
    expect((await h.get('/_emulator/clock')).status).toBe(404);
    expect((await h.get('/_emulator/usage', { token: 'demo-free' })).status).toBe(404);
  });
  it('on a running test clock (serve --clock-runs): usage only, the clock cannot be moved', async () => {
    h = await startHarness({ clock: shiftedClock(Date.parse(START)) as never });
    expect((await h.get('/_emulator/clock')).status).toBe(404);
    await h.get('/api/suspension/sse', { token: 'demo-free' });
    expect((await h.get('/_emulator/usage', { token: 'demo-free' })).json).toMatchObject({ token: 'demo…', known: true, usage: { day: { used: 1 } } });
  });
  it('GET /_emulator/usage shows a token\'s counters, token redacted', async () => {
    h = await startHarness();
    expect((await h.get('/_emulator/usage', { token: 'demo-free' })).json).toEqual({ token: 'demo…', known: true, usage: null });
    await h.get('/api/suspension/sse', { token: 'demo-free' });
    const u = (await h.get('/_emulator/usage', { token: 'demo-free' })).json;
    expect(u.usage.day).toMatchObject({ used: 1, limit: 1000 });
    expect(u.usage.suspension.sse).toEqual({ used: 1, limit: 1, windowMs: 60_000 });
    expect(u.usage.perSecond).toEqual({ used: 1, limit: 1, windowMs: 10_000 });
    // A short token shows only the ellipsis: four of its six characters would give it away.
    expect((await h.get('/_emulator/usage', { token: 'zzzzzz' })).json).toEqual({ token: '…', known: false, usage: null });
  });
});

describe('admin clock input is validated and bounded', () => {
  it('refuses what would wedge or corrupt the clock with a 400 JSON error, and the clock stays put', async () => {
    h = await startHarness();
    const bad = [
      '{"advanceMs":1e300}',
      '{"advanceMs":-1e300}',
      `{"advanceMs":${MAX_ADVANCE_MS + 1}}`,
      '{"advanceMs":1.5}',
      '{"advanceMs":null}',
      '{"advanceMs":1,"set":"2026-01-01T00:00:00Z"}',
      '{"set":"2026-02-31T00:00:00Z"}',
      '{"set":"2026-03-02"}',
      '{"set":"+275760-09-13T00:00:00Z"}',
      '{"set":"1969-12-31T23:59:59Z"}',
      '{"set":"2100-01-01T00:00:00.001Z"}',
      '{"set":1e300}',
      '[]',
      'null',
      '',
    ];
    for (const body of bad) {
      const r = await h.raw('/_emulator/clock', { method: 'POST', body });
      expect(r.status, body).toBe(400);
      expect(r.headers['content-type'], body).toMatch(/json/);
      expect(r.json.error, body).toMatch(/"set": ISO instant between 1970-01-01 and 2100-01-01.*"advanceMs": integer/);
      expect(h.clock.now(), body).toBe(Date.parse(START));
    }
    // Many bounded steps cannot walk it out either.
    let last = 200;
    for (let i = 0; i < 20 && last === 200; i++) last = (await h.raw('/_emulator/clock', { method: 'POST', body: JSON.stringify({ advanceMs: MAX_ADVANCE_MS }) })).status;
    expect(last).toBe(400);
    expect(h.clock.now()).toBeLessThanOrEqual(CLOCK_MAX_MS);
    // And it still answers right away.
    expect((await h.get('/_emulator/clock')).status).toBe(200);
  });

  it('accepts the bounds themselves and an offset instant', async () => {
    h = await startHarness();
    for (const [body, now] of [
      [{ advanceMs: -1000 }, '2026-03-02T14:59:59.000Z'],
      [{ set: '2026-05-01T12:00:00+02:00' }, '2026-05-01T10:00:00.000Z'],
      [{ set: '1970-01-01T00:00:00Z' }, '1970-01-01T00:00:00.000Z'],
      [{ set: '2100-01-01T00:00:00Z' }, '2100-01-01T00:00:00.000Z'],
      [{ advanceMs: -MAX_ADVANCE_MS }, new Date(CLOCK_MAX_MS - MAX_ADVANCE_MS).toISOString()],
    ] as const) {
      const r = await h.raw('/_emulator/clock', { method: 'POST', body: JSON.stringify(body) });
      expect(r.status, JSON.stringify(body)).toBe(200);
      expect(r.json.now).toBe(now);
    }
  });
});
