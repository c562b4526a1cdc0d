/**
 * A run that starts right after another on the same token counts the last run's sends in its
 * windows, as the service does (api/recent-sends.ts): no 429 at its start, every window used to
 * the last request across the two processes. Real HTTP against the emulator on loopback, one
 * ManualClock for both; the file's ages in machine time with Date frozen.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RecentSends } from '../../src/api/recent-sends.js';
import { tokenHash16 } from '../../src/api/quota-store.js';
import { startWorld, type World } from './helpers/emulator.js';

let world: World | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await world?.close();
  world = undefined;
});

const sendsFile = (w: World, plan: string) => join(w.stateDir, 'quota', `${tokenHash16(`demo-${plan}`)}.sends.json`);

describe('windows carried from one process to the next on a token', () => {
  it('a second client at the same instant waits out the per-second window the first filled: no 429', async () => {
    world = await startWorld();
    const t0 = world.clock.now();
    const first = world.client('professional');
    await Promise.all(Array.from({ length: 20 }, () => first.client.tradeTicks(['EURUSD'])));
    expect(first.infos.map((i) => i.sentAt - t0)).toEqual(Array.from({ length: 20 }, () => 0));
    await first.client.close();

    const second = world.client('professional');
    await second.client.tradeTicks(['EURUSD']);
    expect(second.infos.map((i) => [i.outcome, i.sentAt - t0])).toEqual([['ok', 1000]]);
    expect(world.emu.usage('demo-professional')?.day.used).toBe(21);
  });

  it('the /batch-kline gap and each suspension endpoint’s minute carry over; an exchange not asked is not held', async () => {
    world = await startWorld();
    const t0 = world.clock.now();
    const first = world.client('professional');
    await first.client.batchKline([{ code: 'AAPL.US', klineType: 1 }]);
    await first.client.halts('sse', { page: 1, size: 3 });
    await first.client.close();

    const second = world.client('professional');
    await Promise.all([second.client.batchKline([{ code: 'AAPL.US', klineType: 1 }]), second.client.halts('sse', { page: 1, size: 3 }), second.client.halts('nyse', { page: 1, size: 3 })]);
    const at = (suffix: string) => second.infos.filter((i) => i.endpoint.endsWith(suffix)).map((i) => [i.outcome, i.sentAt - t0]);
    expect(at('/batch-kline')).toEqual([['ok', 1000]]);
    expect(at('/sse')).toEqual([['ok', 60_000]]);
    expect(at('/nyse')).toEqual([['ok', 0]]);
  });

  it('a long hold an earlier run left is said once at warn, at the first request it holds; a short one and an endpoint not asked are not', async () => {
    world = await startWorld();
    const first = world.client('professional');
    await first.client.batchKline([{ code: 'AAPL.US', klineType: 1 }]);
    await first.client.halts('sse', { page: 1, size: 3 });
    await first.client.halts('nyse', { page: 1, size: 3 });
    await first.client.close();
    const t0 = world.clock.now();

    const warned: [string, Record<string, unknown> | undefined][] = [];
    const logger = { debug() {}, info() {}, error() {}, warn: (message: string, fields?: Record<string, unknown>) => warned.push([message, fields]) };
    const second = world.client('professional', { logger });
    await second.client.batchKline([{ code: 'AAPL.US', klineType: 1 }]);
    expect(warned).toEqual([]);
    await second.client.halts('sse', { page: 1, size: 3 });
    await second.client.halts('sse', { page: 2, size: 3 });
    const sse = second.infos.filter((i) => i.endpoint.endsWith('/sse')).map((i) => i.sentAt - t0);
    expect(sse[0]).toBeGreaterThan(50_000);
    expect(warned).toHaveLength(1);
    const [message, fields] = warned[0]!;
    expect(message).toMatch(/^an earlier run on this token asked \/api\/suspension\/sse at \S+Z: the plan's gap after it holds this request until \S+Z \(\d+ s\), as the service would count it$/);
    expect(fields).toMatchObject({ event: 'recent-sends-hold', endpoint: '/api/suspension/sse' });
    expect(fields!.waitMs as number).toBeGreaterThan(50_000);
    // nyse was held too, but this run never asked it: nothing said of it.
    await second.client.close();
    expect(warned).toHaveLength(1);
  });

  it('sends whose windows have passed hold nothing back, and the file keeps only what still counts', async () => {
    world = await startWorld();
    const first = world.client('professional');
    await Promise.all(Array.from({ length: 20 }, () => first.client.tradeTicks(['EURUSD'])));
    await first.client.halts('nasdaq', { page: 1, size: 3 });
    await first.client.close();
    const saved = JSON.parse(await readFile(sendsFile(world, 'professional'), 'utf8')) as { windows: Record<string, { windowMs: number; ages: number[] }> };
    // The halts request waited a second for the full window; by then the 20 before it had left it.
    expect(saved.windows['combined:second']).toEqual({ windowMs: 1000, ages: [0] });
    expect(saved.windows['combined:minute']?.ages).toEqual([...Array.from({ length: 20 }, () => 1000), 0].sort((a, b) => a - b));
    expect(saved.windows['gap:/api/suspension/nasdaq']).toEqual({ windowMs: 60_000, ages: [0] });

    world.clock.advance(1000);
    const t1 = world.clock.now();
    const second = world.client('professional');
    await second.client.tradeTicks(['EURUSD']);
    expect(second.infos.map((i) => [i.outcome, i.sentAt - t1])).toEqual([['ok', 0]]);
    await second.client.close();
    // The per-second stamps of the first run have aged out; its suspension minute has not.
    const kept = JSON.parse(await readFile(sendsFile(world, 'professional'), 'utf8')) as { windows: Record<string, { ages: number[] }> };
    expect(kept.windows['combined:second']?.ages).toEqual([0]);
    expect(kept.windows['gap:/api/suspension/nasdaq']?.ages).toEqual([1000]);
  });

  it('runs back to back count each earlier send once: the file holds one age per send, and a free plan keeps its 10 s pace', async () => {
    world = await startWorld();
    const t0 = world.clock.now();
    const sentAt: number[] = [];
    // Ten runs of one request each on a free token (1 per 10 s, 10 per minute), one after another.
    for (let run = 0; run < 10; run++) {
      const next = world.client('free');
      await next.client.tradeTicks(['EURUSD']);
      await next.client.close();
      sentAt.push(...next.infos.map((i) => i.sentAt - t0));
    }
    // The service admits one every 10 s: a send counted twice would fill the minute window early.
    expect(sentAt).toEqual(Array.from({ length: 10 }, (_, i) => i * 10_000));
    const saved = JSON.parse(await readFile(sendsFile(world, 'free'), 'utf8')) as { windows: Record<string, { ages: number[] }> };
    // The six sends of the last minute, each once.
    expect(saved.windows['combined:minute']?.ages).toEqual([0, 10_000, 20_000, 30_000, 40_000, 50_000]);
  });

  it('names the file by the token’s hash and never writes the token; a damaged file is ignored', async () => {
    world = await startWorld();
    const first = world.client('professional');
    await first.client.tradeTicks(['EURUSD']);
    await first.client.close();
    const names = await readdir(join(world.stateDir, 'quota'));
    expect(names).toContain(`${tokenHash16('demo-professional')}.sends.json`);
    for (const name of names) expect(await readFile(join(world.stateDir, 'quota', name), 'utf8')).not.toContain('demo-professional');

    await writeFile(sendsFile(world, 'professional'), '{"version":1,"tokenHash":');
    world.clock.advance(5000);
    const t1 = world.clock.now();
    const second = world.client('professional');
    await second.client.tradeTicks(['EURUSD']);
    expect(second.infos.map((i) => [i.outcome, i.sentAt - t1])).toEqual([['ok', 0]]);
  });

  it('on a real-time clock, ages follow the machine’s time, so a run under another --clock instant still counts them', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-30T10:00:00.000Z'));
    world = await startWorld();
    // Two runs pinned to instants days apart (`--clock`), 400 ms apart in machine time.
    const firstClock = { now: () => Date.parse('2026-11-20T00:00:05.000Z') };
    await new RecentSends(world.stateDir, 'tok', firstClock).save(new Map([['combined:second', { windowMs: 1000, stamps: [firstClock.now() - 100, firstClock.now()] }]]));
    vi.setSystemTime(new Date('2026-11-30T10:00:00.400Z'));
    const secondClock = { now: () => Date.parse('2026-11-25T12:00:00.000Z') };
    const loaded = await new RecentSends(world.stateDir, 'tok', secondClock).load();
    const now = secondClock.now();
    expect(loaded.get('combined:second')).toEqual({ windowMs: 1000, stamps: [now - 500, now - 400] });
    // 550 ms later the older one has left its window; 50 ms after that, the other too.
    vi.setSystemTime(new Date('2026-11-30T10:00:00.950Z'));
    expect((await new RecentSends(world.stateDir, 'tok', secondClock).load()).get('combined:second')?.stamps).toEqual([now - 950]);
    vi.setSystemTime(new Date('2026-11-30T10:00:01.000Z'));
    expect((await new RecentSends(world.stateDir, 'tok', secondClock).load()).size).toBe(0);
  });
});
