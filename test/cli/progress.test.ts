import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { chooseProgressMode, startProgress } from '../../src/cli/progress/progress.js';
import { progressFigures, progressLine } from '../../src/cli/progress/progress-figures.js';
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
    expect(progressLine('demo', f)).toBe('quotelake: demo: 10/40 requests (25%), kline 5,000 rows, 5.0 req/s, ETA 6s, quota 110/1,000');
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
      progress.stop();
      vi.advanceTimersByTime(20_000);
      expect(err.text().split('\n').filter((l) => l.startsWith('quotelake: p:'))).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('draws ANSI bars on a terminal stream', () => {
    const err = sink();
    (err.stream as unknown as { isTTY: boolean }).isTTY = true;
    (err.stream as unknown as { columns: number }).columns = 100;
    (err.stream as unknown as { cursorTo: () => boolean }).cursorTo = () => true;
    (err.stream as unknown as { clearLine: () => boolean }).clearLine = () => true;
    (err.stream as unknown as { moveCursor: () => boolean }).moveCursor = () => true;
    const terminal = createTerminal({ stdout: sink().stream, stderr: err.stream, stderrIsTTY: true });
    const events = createRunEvents();
    const progress = startProgress({ mode: 'bars', terminal, events, clock: new ManualClock(0), label: 'p' });
    events.planned('s', 4);
    events.request('/x');
    events.rows('kline', 'received', 42);
    progress.stop();
    expect(err.text()).toContain('quotelake: running p');
    expect(err.text()).toMatch(/requests \[=+-+\] 1\/4/);
    expect(err.text()).toContain('kline rows: 42 received');
  });
});
