/**
 * A hard stop (second signal, watchdog) gives what was added to `lastWords` (a run's record marked
 * interrupted) at most LAST_WORDS_MS, then exits 130 whether it landed or not; a signal more exits
 * without waiting. No real signals: listeners are called with process.emit.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { handleInterrupts, LAST_WORDS_MS, STOP_GRACE_MS } from '../../src/cli/interrupts.js';

afterEach(() => {
  vi.useRealTimers();
});

function setUp() {
  const exits: number[] = [];
  const interrupts = handleInterrupts(() => undefined, { exit: (c) => exits.push(c) });
  return { exits, interrupts };
}

describe('the last words of a hard stop', () => {
  it('a write that lands: exit 130 right after it', async () => {
    vi.useFakeTimers();
    const { exits, interrupts } = setUp();
    const written: string[] = [];
    let land = (): void => undefined;
    interrupts.lastWords.add(() => new Promise<void>((resolve) => (land = () => (written.push('interrupted'), resolve()))));
    try {
      process.emit('SIGINT', 'SIGINT');
      process.emit('SIGINT', 'SIGINT');
      expect(exits).toEqual([]);
      land();
      await vi.advanceTimersByTimeAsync(0);
      expect(written).toEqual(['interrupted']);
      expect(exits).toEqual([130]);
      await vi.advanceTimersByTimeAsync(LAST_WORDS_MS);
      expect(exits).toEqual([130]);
    } finally {
      interrupts.dispose();
    }
  });

  it('a write that never returns (a hung file system): exit 130 after LAST_WORDS_MS, also from the watchdog', async () => {
    expect(LAST_WORDS_MS).toBeLessThanOrEqual(500);
    for (const hardStop of ['second signal', 'watchdog'] as const) {
      vi.useFakeTimers();
      const { exits, interrupts } = setUp();
      interrupts.lastWords.add(() => new Promise<void>(() => undefined));
      try {
        process.emit('SIGTERM', 'SIGTERM');
        if (hardStop === 'second signal') process.emit('SIGTERM', 'SIGTERM');
        else await vi.advanceTimersByTimeAsync(STOP_GRACE_MS);
        await vi.advanceTimersByTimeAsync(LAST_WORDS_MS - 1);
        expect(exits, hardStop).toEqual([]);
        await vi.advanceTimersByTimeAsync(1);
        expect(exits, hardStop).toEqual([130]);
      } finally {
        interrupts.dispose();
        vi.useRealTimers();
      }
    }
  });

  it('a write that throws is no reason to wait: exit 130', async () => {
    vi.useFakeTimers();
    const { exits, interrupts } = setUp();
    interrupts.lastWords.add(() => Promise.reject(new Error('EIO')));
    try {
      process.emit('SIGINT', 'SIGINT');
      process.emit('SIGINT', 'SIGINT');
      await vi.advanceTimersByTimeAsync(0);
      expect(exits).toEqual([130]);
    } finally {
      interrupts.dispose();
    }
  });

  it('a third signal exits without waiting', async () => {
    vi.useFakeTimers();
    const { exits, interrupts } = setUp();
    interrupts.lastWords.add(() => new Promise<void>(() => undefined));
    try {
      process.emit('SIGINT', 'SIGINT');
      process.emit('SIGINT', 'SIGINT');
      expect(exits).toEqual([]);
      process.emit('SIGINT', 'SIGINT');
      expect(exits).toEqual([130]);
      await vi.advanceTimersByTimeAsync(LAST_WORDS_MS);
      expect(exits).toEqual([130]);
    } finally {
      interrupts.dispose();
    }
  });

  it('a withdrawn write (the run wrote its final record) is not waited for: exit at once', () => {
    const { exits, interrupts } = setUp();
    const withdraw = interrupts.lastWords.add(() => new Promise<void>(() => undefined));
    withdraw();
    try {
      process.emit('SIGINT', 'SIGINT');
      process.emit('SIGINT', 'SIGINT');
      expect(exits).toEqual([130]);
    } finally {
      interrupts.dispose();
    }
  });
});
