import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { chooseProgressMode, startProgress } from '../../src/cli/progress/progress.js';
import { byteSize, counted, progressFigures, progressLine, streamLabel, visibleStreams, type StreamFigures } from '../../src/cli/progress/progress-figures.js';
import { createTerminal } from '../../src/cli/terminal.js';
import { ManualClock } from '../../src/core/clock.js';
import { createRunEvents } from '../../src/runtime/run-events.js';

function sink(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

describe('progress figures', () => {
  it('counts requests of planned, rows, rate, ETA and quota', () => {
    const events = createRunEvents();
    const clock = new ManualClock(0);
    events.planned('a', 30);
    events.planned('b', 10);
    for (let i = 0; i < 10; i++) events.request('/quote-b-api/kline');
    events.rows('kline', 'received', 5000);
    clock.advance(2000);
    const f = progressFigures(events, 0, clock.now(), { usedAtStart: 100, limit: 1000 });
    expect(f).toMatchObject({ requests: 10, planned: 40, rate: 5, etaSeconds: 6, quotaUsed: 110, quotaLimit: 1000 });
    expect(progressLine('demo', f)).toBe('quotelake: demo: 10/40 requests (25%), 0/2 streams done, kline 5,000 rows, 5.0 req/s, ETA 6s, quota 110/1,000');
  });

  it('counts only what the service charged against the quota: requests refused with 429 are sent, not charged', () => {
    const events = createRunEvents();
    let refused = 0;
    for (let i = 0; i < 30; i++) events.request('/quote-b-api/kline');
    refused = 22;
    const f = progressFigures(events, 0, 1000, { usedAtStart: 100, limit: 1000, uncharged: () => refused });
    expect(f).toMatchObject({ requests: 30, quotaUsed: 108 });
  });

  it('a run across the quota day\'s reset counts the new day from 0, not the old day\'s use plus every request (no "quota 10/6")', () => {
    const events = createRunEvents();
    const clock = new ManualClock('2026-11-20T15:59:56Z');
    const startedAt = clock.now();
    const quota = { usedAtStart: 2, limit: 6, resetAtMs: Date.parse('2026-11-20T16:00:00Z') };
    for (let i = 0; i < 3; i++) events.request('/quote-b-api/kline');
    clock.advance(3000);
    expect(progressFigures(events, startedAt, clock.now(), quota).quotaUsed).toBe(5);
    // Past the reset: what it charged since the first figures of the new day.
    clock.advance(2000);
    expect(progressFigures(events, startedAt, clock.now(), quota).quotaUsed).toBe(0);
    for (let i = 0; i < 4; i++) events.request('/quote-b-api/kline');
    clock.advance(4000);
    const f = progressFigures(events, startedAt, clock.now(), quota);
    expect(f).toMatchObject({ requests: 7, quotaUsed: 4, quotaLimit: 6 });
    expect(progressLine('p', f)).toMatch(/, quota 4\/6$/);
    // And again a day later.
    for (let i = 0; i < 2; i++) events.request('/quote-b-api/kline');
    clock.set('2026-11-21T16:00:01Z');
    expect(progressFigures(events, startedAt, clock.now(), quota).quotaUsed).toBe(0);
    events.request('/quote-b-api/kline');
    expect(progressFigures(events, startedAt, clock.now(), quota).quotaUsed).toBe(1);
  });

  it('requests refused with 429 are no progress: the share and the ETA go by those that were not', () => {
    const events = createRunEvents();
    // 20 planned; 10 sent, 4 of them refused and each planned again: 24 planned, 6 moved the run on.
    events.planned('a', 24);
    for (let i = 0; i < 10; i++) events.request('/quote-b-api/kline', 'a');
    const f = progressFigures(events, 0, 2000, undefined, 'running', 4);
    // 6 of the 20 wanted sent (30 %), at 3 useful requests/s: 14 to go take about 5 s (not 14/5 s).
    expect(f).toMatchObject({ requests: 10, planned: 24, refused: 4, rate: 5 });
    expect(f.etaSeconds).toBeCloseTo(14 / 3);
    expect(f.streams[0]).toMatchObject({ requests: 10, progressed: 6, planned: 24 });
    expect(f.streams[0]!.etaSeconds).toBeCloseTo(14 / 3);
    expect(progressLine('p', f)).toBe('quotelake: p: 10/24 requests (30%), 4 refused with 429, 0/1 streams done, 5.0 req/s, ETA 5s');
    // All refused: nothing done, and nothing tells when it ends.
    const none = progressFigures(events, 0, 2000, undefined, 'running', 10);
    expect(none.etaSeconds).toBeUndefined();
    expect(progressLine('p', none)).toBe('quotelake: p: 10/24 requests (0%), 10 refused with 429, 0/1 streams done, 5.0 req/s');
  });
});

describe('counted', () => {
  it('a count with its noun, singular for exactly one, thousands separated', () => {
    expect([0, 1, 2, 1441].map((v) => counted(v, 'file'))).toEqual(['0 files', '1 file', '2 files', '1,441 files']);
    expect(counted(36000, 'row', String)).toBe('36000 rows');
  });
});

describe('byteSize', () => {
  it('the unit that reads best', () => {
    expect([512, 23_261, 1_601_228, 2_415_919_104].map(byteSize)).toEqual(['512 B', '22.7 KiB', '1.5 MiB', '2.25 GiB']);
  });
});

describe('per-stream figures', () => {
  it('counts requests of planned, rows, rate, ETA and done for each stream', () => {
    const events = createRunEvents();
    events.planned('kline/BTCUSDT/1m', 4);
    events.planned('halt/nyse', 2);
    for (let i = 0; i < 3; i++) events.request('/quote-b-api/kline', 'kline/BTCUSDT/1m');
    events.request('/quote-b-api/halts', 'halt/nyse');
    events.request('/quote-b-api/halts', 'halt/nyse');
    events.streamDone('halt/nyse');
    events.request('/quote-b-api/kline');
    events.streamRows('kline/BTCUSDT/1m', 1500);
    events.streamRows('kline/ETHUSDT/1m', 7);
    const f = progressFigures(events, 0, 2000, undefined);
    expect(f.requests).toBe(6);
    expect(f.streams).toEqual([
      { stream: 'halt/nyse', label: 'halt nyse', requests: 2, planned: 2, progressed: 2, rows: 0, rate: 1, etaSeconds: undefined, done: true },
      { stream: 'kline/BTCUSDT/1m', label: 'BTCUSDT 1m', requests: 3, planned: 4, progressed: 3, rows: 1500, rate: 1.5, etaSeconds: 1 / 1.5, done: false },
      // Rows under a key the source planned nothing for: shown, never done.
      { stream: 'kline/ETHUSDT/1m', label: 'ETHUSDT 1m', requests: 0, planned: 0, progressed: 0, rows: 7, rate: 0, etaSeconds: undefined, done: false },
    ]);
    expect(f.streamsDone).toBe(1);
    expect(progressLine('p', f)).toContain('6/6 requests (100%), 1/2 streams done, ');
    // A stream with nothing to fetch (a closed market's) is done at once, and counted on neither side.
    events.streamDone('kline/AAPL.US/1m');
    expect(progressLine('p', progressFigures(events, 0, 2000, undefined))).toContain(', 1/2 streams done, ');
  });

  it('labels stream keys briefly', () => {
    expect(streamLabel('kline/BTCUSDT/1m')).toBe('BTCUSDT 1m');
    expect(streamLabel('halt/nyse')).toBe('halt nyse');
    expect(streamLabel('depth')).toBe('depth');
  });

  it('keeps the terminal readable: unfinished and busiest streams first, the rest in one summary', () => {
    const s = (stream: string, requests: number, planned: number, rows = 0): StreamFigures => ({
      stream, label: stream, requests, planned, progressed: requests, rows, rate: 0, etaSeconds: undefined, done: planned > 0 && requests >= planned,
    });
    const few = [s('a', 1, 2), s('b', 2, 2)];
    expect(visibleStreams(few, 12)).toEqual({ shown: few, hidden: { count: 0, done: 0, requests: 0, planned: 0, rows: 0 } });
    const many = [s('a', 5, 5, 10), s('b', 0, 5), s('c', 3, 5, 30), s('d', 4, 5, 40), s('e', 5, 5, 50), s('f', 1, 5, 1)];
    const v = visibleStreams(many, 4);
    // 3 stream lines + 1 summary line: the running ones with most requests, in key order.
    expect(v.shown.map((x) => x.stream)).toEqual(['c', 'd', 'f']);
    expect(v.hidden).toEqual({ count: 3, done: 2, requests: 10, planned: 15, rows: 60 });
  });
});

describe('startProgress', () => {
  it('off for --quiet, bars on a TTY, lines otherwise', () => {
    expect(chooseProgressMode({ quiet: true, json: false, isTTY: true })).toBe('off');
    expect(chooseProgressMode({ quiet: false, json: false, isTTY: true })).toBe('bars');
    expect(chooseProgressMode({ quiet: false, json: true, isTTY: false })).toBe('lines');
  });

  it('prints a plain line every interval, redacted, and stops', () => {
    vi.useFakeTimers();
    try {
      const err = sink();
      const terminal = createTerminal({ stdout: sink().stream, stderr: err.stream, stderrIsTTY: false });
      terminal.addSecret('secret-token-value');
      const events = createRunEvents();
      const clock = new ManualClock(0);
      const progress = startProgress({ mode: 'lines', terminal, events, clock, label: 'p', intervalMs: 5000 });
      events.request('/x');
      clock.advance(1000);
      vi.advanceTimersByTime(4999);
      expect(err.text()).toBe('');
      vi.advanceTimersByTime(1);
      expect(err.text()).toBe('quotelake: p: 1 requests, 1.0 req/s\n');
      progress.log('a line with secret-token-value inside');
      expect(err.text()).toContain('a line with secr… inside');
      events.request('/x');
      clock.advance(1000);
      progress.stop();
      vi.advanceTimersByTime(20_000);
      // One line at the interval, and the last one, at the stop, with the counts it stopped at.
      expect(err.text().split('\n').filter((l) => l.startsWith('quotelake: p:'))).toEqual(['quotelake: p: 1 requests, 1.0 req/s', 'quotelake: p: 2 requests, 1.0 req/s']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a run shorter than one interval prints no line, not even at its stop', () => {
    vi.useFakeTimers();
    try {
      const err = sink();
      const terminal = createTerminal({ stdout: sink().stream, stderr: err.stream, stderrIsTTY: false });
      const events = createRunEvents();
      const progress = startProgress({ mode: 'lines', terminal, events, clock: new ManualClock(0), label: 'p', intervalMs: 5000 });
      events.request('/x');
      vi.advanceTimersByTime(4000);
      progress.stop();
      expect(err.text()).toBe('');
    } finally {
      vi.useRealTimers();
    }
  });
});
