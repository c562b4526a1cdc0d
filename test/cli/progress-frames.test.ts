/**
 * The terminal display, driven on a fake terminal (test/cli/helpers/virtual-screen.ts) that keeps
 * what a real one would show: the frames are read back as screen lines.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { colorEnabled, colors, stripColor } from '../../src/cli/colors.js';
import { startProgress } from '../../src/cli/progress/progress.js';
import { progressFigures } from '../../src/cli/progress/progress-figures.js';
import { renderFrame } from '../../src/cli/progress/progress-frame.js';
import { createTerminal } from '../../src/cli/terminal.js';
import { ManualClock } from '../../src/core/clock.js';
import { createRunEvents } from '../../src/runtime/run-events.js';
import { VirtualScreen } from './helpers/virtual-screen.js';

const SGR = /\u001b\[[0-9;]*m/;

function setup(options: { columns?: number; color?: boolean; quota?: { usedAtStart: number; limit: number } } = {}) {
  const screen = new VirtualScreen(options.columns ?? 100);
  const terminal = createTerminal({ stdout: new VirtualScreen(), stderr: screen, stderrIsTTY: true, color: options.color ?? false });
  const events = createRunEvents();
  const clock = new ManualClock(0);
  const progress = startProgress({ mode: 'bars', terminal, events, clock, label: 'p', quota: options.quota });
  return { screen, terminal, events, clock, progress };
}

/** A frame is drawn at most every 100 ms after a count changes. */
const frame = () => vi.advanceTimersByTime(100);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the terminal display', () => {
  it('draws no frame before the source has planned or sent anything: the first one measures by the plan', () => {
    const { screen, events, clock, progress } = setup();
    clock.advance(600);
    vi.advanceTimersByTime(600);
    expect(screen.lines()).toEqual(['quotelake: running p']);
    events.planned('kline/BTCUSDT/1m', 4);
    frame();
    expect(screen.lines()[1]).toBe(' requests [--------------------] 0/4 | 0.0/s | ETA -');
    progress.stop();
  });

  it('puts requests and rows on the stream that sent them, with the total of all', () => {
    const { screen, events, clock, progress } = setup({ quota: { usedAtStart: 10, limit: 100 } });
    events.planned('kline/BTCUSDT/1m', 87);
    events.planned('kline/EURUSD/1h', 2);
    for (let i = 0; i < 5; i++) events.request('/quote-b-api/kline', 'kline/BTCUSDT/1m');
    events.request('/quote-b-api/kline', 'kline/EURUSD/1h');
    events.streamRows('kline/BTCUSDT/1m', 2500);
    events.streamRows('kline/EURUSD/1h', 500);
    events.rows('kline', 'received', 3000);
    clock.advance(2000);
    frame();
    expect(screen.lines()).toEqual([
      'quotelake: running p',
      ' requests [=-------------------] 6/89 | 3.0/s | ETA 28s | quota 16/100',
      ' BTCUSDT 1m [=-----------] 5/87 | 2,500 rows | 2.5/s | ETA 33s',
      ' EURUSD 1h  [======------] 1/2 | 500 rows | 0.5/s | ETA 2s',
      ' kline rows: 3,000 received | 0 written | 0 rejected',
    ]);
    progress.stop();
  });

  it('never shows done above planned, and done only once the source says so, with no ETA', () => {
    const { screen, events, clock, progress } = setup();
    events.planned('kline/BTCUSDT/1m', 3);
    events.planned('halt/nyse', 1);
    // Short pages: more requests than planned before the source re-plans.
    for (let i = 0; i < 5; i++) events.request('/quote-b-api/kline', 'kline/BTCUSDT/1m');
    events.request('/api/suspension/nyse', 'halt/nyse');
    clock.advance(1000);
    frame();
    // Everything planned is sent, but neither source has said it is done (answers may be
    // outstanding, a refused request may go again).
    expect(screen.lines()).toContain(' BTCUSDT 1m [============] 5/5 | 0 rows | 5.0/s | ETA 0s');
    expect(screen.lines()).toContain(' halt nyse  [============] 1/1 | 0 rows | 1.0/s | ETA 0s');
    events.streamDone('halt/nyse');
    frame();
    const lines = screen.lines();
    expect(lines).toContain(' halt nyse  [============] 1/1 | 0 rows | done');
    expect(lines[1]).toMatch(/^ requests \[=+\] 6\/6 \| 6\.0\/s \| ETA 0s$/);
    // The source re-plans: 5 sent, 4 to come.
    events.planned('kline/BTCUSDT/1m', 9);
    frame();
    expect(screen.lines()).toContain(' BTCUSDT 1m [=======-----] 5/9 | 0 rows | 5.0/s | ETA 1s');
    for (const l of screen.lines()) {
      const m = /(\d+)\/(\d+) /.exec(l);
      if (m) expect(Number(m[1])).toBeLessThanOrEqual(Number(m[2]));
    }
    progress.stop('completed');
  });

  it('the last frame: every stream done at what it sent when the run completed, the total = the summary, drawn once', () => {
    const { screen, events, clock, progress } = setup();
    events.planned('kline/BTCUSDT/1m', 87);
    events.planned('kline/EURUSD/1h', 2);
    for (let i = 0; i < 72; i++) events.request('/quote-b-api/kline', 'kline/BTCUSDT/1m');
    events.request('/quote-b-api/kline', 'kline/EURUSD/1h');
    // A request no stream claimed still counts in the total.
    events.request('/quote-b-api/batch-kline');
    clock.advance(4000);
    frame();
    const drawn = screen.writes.length;
    progress.stop('completed');
    const total = Object.values(events.snapshot().requests).reduce((a, b) => a + b, 0);
    expect(total).toBe(74);
    expect(screen.lines()).toEqual([
      'quotelake: running p',
      ' requests [====================] 74/74 | 18.5/s | done',
      ' BTCUSDT 1m [============] 72/72 | 0 rows | done',
      ' EURUSD 1h  [============] 1/1 | 0 rows | done',
    ]);
    // One write for the last frame; nothing after it, whatever happens later.
    expect(screen.writes.length).toBe(drawn + 1);
    progress.stop('completed');
    events.request('/quote-b-api/kline', 'kline/BTCUSDT/1m');
    vi.advanceTimersByTime(5000);
    expect(screen.writes.length).toBe(drawn + 1);
    // What follows (the summary) starts on the line below the last frame.
    screen.write('summary\n');
    expect(screen.lines().filter((l) => l.includes('BTCUSDT 1m'))).toHaveLength(1);
    expect(screen.lines().at(-1)).toBe('summary');
  });

  it('a stopped run shows where each stream stopped, without ETA', () => {
    const { screen, events, clock, progress } = setup();
    events.planned('kline/BTCUSDT/1m', 10);
    events.request('/quote-b-api/kline', 'kline/BTCUSDT/1m');
    clock.advance(1000);
    progress.stop('stopped');
    expect(screen.lines()).toEqual(['quotelake: running p', ' requests [==------------------] 1/10 | 1.0/s | stopped', ' BTCUSDT 1m [=-----------] 1/10 | 0 rows | stopped']);
  });

  it('a stop after a stream sent all it planned but before its source called it done: stopped, not done', () => {
    const { screen, events, clock, progress } = setup();
    // Three pages asked for ahead, one page's rows handed over when the stop came.
    events.planned('kline/BTCUSDT/1h', 3);
    events.planned('halt/nyse', 1);
    for (let i = 0; i < 3; i++) events.request('/quote-b-api/kline', 'kline/BTCUSDT/1h');
    events.streamRows('kline/BTCUSDT/1h', 500);
    events.request('/api/suspension/nyse', 'halt/nyse');
    events.streamDone('halt/nyse');
    clock.advance(1000);
    progress.stop('stopped');
    expect(screen.lines()).toContain(' BTCUSDT 1h [============] 3/3 | 500 rows | stopped');
    expect(screen.lines()).toContain(' halt nyse  [============] 1/1 | 0 rows | done');
  });

  it('a signal notice and log lines go above the bars, on their own line and whole, wider than the terminal', () => {
    const { screen, terminal, events, clock, progress } = setup({ columns: 60 });
    events.planned('kline/BTCUSDT/1m', 4);
    events.request('/quote-b-api/kline', 'kline/BTCUSDT/1m');
    clock.advance(1000);
    frame();
    const notice = 'quotelake: SIGINT: stopping after the current batch and committing finished work (send it again to quit at once)';
    // The interrupt handler prints through the terminal, not through the progress.
    terminal.err(notice);
    progress.log('a log line\n');
    expect(screen.lines()).toEqual([
      'quotelake: running p',
      notice,
      'a log line',
      ' requests [=====---------------] 1/4 | 1.0/s | ETA 3s',
      ' BTCUSDT 1m [===---------] 1/4 | 0 rows | 1.0/s | ETA 3s',
    ]);
    events.request('/quote-b-api/kline', 'kline/BTCUSDT/1m');
    frame();
    progress.stop('stopped');
    // After the bars are gone, lines print plainly below them.
    terminal.err('after');
    const lines = screen.lines();
    expect(lines.filter((l) => l === notice)).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith(' BTCUSDT 1m'))).toEqual([' BTCUSDT 1m [======------] 2/4 | 0 rows | stopped']);
    expect(lines.at(-1)).toBe('after');
  });

  it('keeps every bar line within the terminal width (a wrapped line would break the redraw)', () => {
    const { screen, events, clock, progress } = setup({ columns: 40, quota: { usedAtStart: 1_000_000, limit: 1_728_000 } });
    events.planned('kline/A-VERY-LONG-PRODUCT-CODE/1m', 1000);
    events.request('/k', 'kline/A-VERY-LONG-PRODUCT-CODE/1m');
    events.rows('kline', 'received', 123_456_789);
    clock.advance(1000);
    frame();
    frame();
    progress.stop();
    const lines = screen.lines().slice(1);
    expect(lines).toHaveLength(3);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(39);
    expect(lines[0]).toBe(' requests [--------------------] 1/1,0…');
    expect(lines[1]).toMatch(/^ A-VERY-LONG-PRODU… \[/);
  });

  it('keeps the block within the terminal height: the streams that do not fit are summed on one line', () => {
    const events = createRunEvents();
    for (let i = 0; i < 10; i++) {
      events.planned(`kline/CODE${i}/1m`, 4);
      events.request('/k', `kline/CODE${i}/1m`);
    }
    events.rows('kline', 'received', 10);
    const f = progressFigures(events, 0, 1000, undefined, 'running');
    const tall = renderFrame(f, { columns: 100, colors: colors(false) });
    const short = renderFrame(f, { columns: 100, rows: 8, colors: colors(false) });
    expect(tall.length).toBeGreaterThan(8);
    // A line is left for the cursor below the block: a block as tall as the screen scrolls on each redraw.
    expect(short.length).toBeLessThanOrEqual(7);
    expect(short.at(-2)).toMatch(/^ \d+ more streams: /);
    expect(stripColor(short.join('\n'))).toContain('requests');
  });

  it('colours on a terminal, none with colour off: the same text either way', () => {
    const on = setup({ color: true });
    const off = setup({ color: false });
    for (const { events, clock, progress } of [on, off]) {
      events.planned('kline/BTCUSDT/1m', 2);
      events.request('/k', 'kline/BTCUSDT/1m');
      events.rows('kline', 'rejected', 1);
      clock.advance(1000);
      frame();
      progress.stop('completed');
    }
    expect(on.screen.raw()).toMatch(SGR);
    expect(off.screen.raw()).not.toMatch(SGR);
    expect(stripColor(on.screen.raw())).toBe(off.screen.raw());
    expect(on.screen.lines()).toEqual(off.screen.lines());
  });
});

describe('colour', () => {
  it('on for a terminal; off with --no-color, NO_COLOR (any non-empty value), TERM=dumb; FORCE_COLOR forces it', () => {
    expect(colorEnabled({ isTTY: true, env: {} })).toBe(true);
    expect(colorEnabled({ isTTY: false, env: {} })).toBe(false);
    expect(colorEnabled({ isTTY: true, env: {}, flag: false })).toBe(false);
    expect(colorEnabled({ isTTY: true, env: { NO_COLOR: '1' } })).toBe(false);
    expect(colorEnabled({ isTTY: true, env: { NO_COLOR: 'yes' } })).toBe(false);
    expect(colorEnabled({ isTTY: true, env: { NO_COLOR: '' } })).toBe(true);
    expect(colorEnabled({ isTTY: true, env: { TERM: 'dumb' } })).toBe(false);
    expect(colorEnabled({ isTTY: false, env: { FORCE_COLOR: '1' } })).toBe(true);
    expect(colorEnabled({ isTTY: true, env: { FORCE_COLOR: '0' } })).toBe(false);
    expect(colorEnabled({ isTTY: false, env: { FORCE_COLOR: '1', NO_COLOR: '1' } })).toBe(false);
    expect(colorEnabled({ isTTY: false, env: { FORCE_COLOR: '1' }, flag: false })).toBe(false);
  });

  it('TERM=dumb, a terminal that cannot move its cursor, gets plain lines, not bars', () => {
    const screen = new VirtualScreen(80);
    expect(createTerminal({ stderr: screen, env: { TERM: 'dumb' } }).stderrIsTTY).toBe(false);
    expect(createTerminal({ stderr: screen, env: { TERM: 'xterm-256color' } }).stderrIsTTY).toBe(true);
  });

  it('with colour off a frame has no escape code at all', () => {
    const events = createRunEvents();
    events.planned('s', 2);
    events.request('/k', 's');
    events.rows('kline', 'rejected', 3);
    const f = progressFigures(events, 0, 1000, undefined, 'completed');
    const plain = renderFrame(f, { columns: 80, colors: colors(false) });
    expect(plain.join('\n')).not.toContain('\u001b');
    const coloured = renderFrame(f, { columns: 80, colors: colors(true) });
    expect(coloured.join('\n')).toMatch(SGR);
    expect(coloured.map(stripColor)).toEqual(plain);
  });
});
