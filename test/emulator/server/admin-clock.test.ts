import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/core/clock.js';
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
  it('does not exist on the system clock', async () => {
    h = await startHarness({ clock: systemClock as never });
    expect((await h.get('/_emulator/clock')).status).toBe(404);
    expect((await h.get('/_emulator/usage', { token: 'demo-free' })).status).toBe(404);
  });
  it('GET /_emulator/usage shows a token\'s counters, token redacted', async () => {
    h = await startHarness();
    expect((await h.get('/_emulator/usage', { token: 'demo-free' })).json).toEqual({ token: 'demo…', known: true, usage: null });
    await h.get('/api/suspension/sse', { token: 'demo-free' });
    const u = (await h.get('/_emulator/usage', { token: 'demo-free' })).json;
    expect(u.usage.day).toMatchObject({ used: 1, limit: 1000 });
    expect(u.usage.suspension.sse).toEqual({ used: 1, limit: 1, windowMs: 60_000 });
    expect(u.usage.perSecond).toEqual({ used: 1, limit: 1, windowMs: 10_000 });
    expect((await h.get('/_emulator/usage', { token: 'zzzzzz' })).json).toEqual({ token: 'zzzz…', known: false, usage: null });
  });
});
