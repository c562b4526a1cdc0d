/**
 * The first signal aborts and arms the watchdog; the second, or the watchdog, exits 130. A command
 * safe to cut anywhere exits 130 at the first, with its notice. No real signals: listeners are
 * called with process.emit.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COMPACT_STOP_WORDS } from '../../src/cli/actions/compact.js';
import { MIGRATE_CUT_NOTICE } from '../../src/cli/actions/migrate.js';
import { VACUUM_CUT_NOTICE } from '../../src/cli/actions/vacuum.js';
import { exitOnInterrupt, handleInterrupts, runStopWords, STOP_GRACE_MS, stopGraceMs } from '../../src/cli/interrupts.js';

afterEach(() => {
  vi.useRealTimers();
});

function setUp(graceMs?: number) {
  const lines: string[] = [];
  const exits: number[] = [];
  const interrupts = handleInterrupts((l) => lines.push(`plain: ${l}`), { exit: (c) => exits.push(c), ...(graceMs !== undefined ? { graceMs } : {}) });
  return { lines, exits, interrupts };
}

describe('handleInterrupts', () => {
  it('the first SIGTERM aborts the run; the watchdog exits 130 if the stop hangs past the grace', () => {
    vi.useFakeTimers();
    const { lines, exits, interrupts } = setUp();
    try {
      process.emit('SIGTERM', 'SIGTERM');
      expect(interrupts.signal.aborted).toBe(true);
      expect(interrupts.received()).toBe('SIGTERM');
      expect(lines).toEqual(['plain: quotelake: SIGTERM: stopping after the current batch and committing finished work (send it again to quit at once)']);
      vi.advanceTimersByTime(STOP_GRACE_MS - 1);
      expect(exits).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(exits).toEqual([130]);
      expect(lines[1]).toBe('plain: quotelake: SIGTERM: the run did not stop within 4 s; exiting now (committed work is safe; the next run resumes from the last commit)');
      expect(STOP_GRACE_MS).toBeLessThan(5000);
    } finally {
      interrupts.dispose();
    }
  });

  it('a second signal exits at once', () => {
    vi.useFakeTimers();
    const { lines, exits, interrupts } = setUp();
    try {
      process.emit('SIGINT', 'SIGINT');
      process.emit('SIGINT', 'SIGINT');
      expect(exits).toEqual([130]);
      expect(lines[1]).toBe('plain: quotelake: SIGINT again: exiting now; the next run resumes from the last commit');
    } finally {
      interrupts.dispose();
    }
  });

  it('a hard stop promises a resume only where the next run resumes: not an NDJSON look, not a polling run', () => {
    const said = (kinds: Parameters<typeof runStopWords>[0]) => [runStopWords(kinds).again('SIGINT'), runStopWords(kinds).hung('SIGTERM', 4)];
    expect(said(['resumed', 'resumed'])).toEqual([
      'quotelake: SIGINT again: exiting now; the next run resumes from the last commit',
      'quotelake: SIGTERM: the run did not stop within 4 s; exiting now (committed work is safe; the next run resumes from the last commit)',
    ]);
    expect(said(['polling'])).toEqual([
      'quotelake: SIGINT again: exiting now; the rounds committed are kept; a polling run is not resumed: the next run takes all its rounds anew',
      'quotelake: SIGTERM: the run did not stop within 4 s; exiting now (the rounds committed are kept; a polling run is not resumed: the next run takes all its rounds anew)',
    ]);
    expect(said(['resumed', 'no-state'])[0]).toBe(
      'quotelake: SIGINT again: exiting now; committed work is safe; the next run resumes the pipelines that keep checkpoints and do not poll, and starts the others over',
    );
  });

  it('dispose() lets signals go: nothing of ours listens any more', () => {
    const before = process.listenerCount('SIGTERM');
    const { interrupts } = setUp();
    expect(process.listenerCount('SIGTERM')).toBe(before + 1);
    interrupts.dispose();
    expect(process.listenerCount('SIGTERM')).toBe(before);
  });

  it('each command says what it stops; a command may stay silent at the first signal (serve) and still be bounded by the watchdog', () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    const exits: number[] = [];
    const silent = handleInterrupts((l) => lines.push(l), {
      exit: (c) => exits.push(c),
      graceMs: 2000,
      words: { stopping: () => undefined, hung: (sig, s) => `${sig} hung ${s}`, again: (sig) => `${sig} again` },
    });
    try {
      process.emit('SIGTERM', 'SIGTERM');
      expect(silent.signal.aborted).toBe(true);
      expect(lines).toEqual([]);
      vi.advanceTimersByTime(2000);
      expect(lines).toEqual(['SIGTERM hung 2']);
      expect(exits).toEqual([130]);
    } finally {
      silent.dispose();
    }
    const compact = handleInterrupts((l) => lines.push(l), { exit: (c) => exits.push(c), words: COMPACT_STOP_WORDS });
    try {
      process.emit('SIGINT', 'SIGINT');
      process.emit('SIGINT', 'SIGINT');
      expect(lines.slice(1)).toEqual([
        'quotelake: SIGINT: stopping after the current partition and committing what is compacted (send it again to quit at once)',
        'quotelake: SIGINT again: exiting now (the lake stays consistent: the next compact or run finishes or undoes an interrupted commit)',
      ]);
    } finally {
      compact.dispose();
    }
  });

  it('stopGraceMs: the flag, else QUOTELAKE_STOP_TIMEOUT, else 4 s; anything but a positive number is a usage error', () => {
    expect(stopGraceMs(undefined, {})).toBe(STOP_GRACE_MS);
    expect(stopGraceMs(30, { QUOTELAKE_STOP_TIMEOUT: '10' })).toBe(30_000);
    expect(stopGraceMs(undefined, { QUOTELAKE_STOP_TIMEOUT: '2.5' })).toBe(2500);
    for (const bad of [0, -1]) expect(() => stopGraceMs(bad, {})).toThrow(`--stop-timeout ${bad}: must be a positive number of seconds`);
    expect(() => stopGraceMs(undefined, { QUOTELAKE_STOP_TIMEOUT: 'never' })).toThrow('QUOTELAKE_STOP_TIMEOUT="never": must be a positive number of seconds');
    // A Node timer beyond 2^31-1 ms fires after 1 ms: a grace of a year would stop at once.
    expect(stopGraceMs(2_147_483, {})).toBe(2_147_483_000);
    expect(() => stopGraceMs(1e7, {})).toThrow('--stop-timeout 10000000: must be at most 2147483 seconds (about 24 days)');
    expect(() => stopGraceMs(undefined, { QUOTELAKE_STOP_TIMEOUT: '1e7' })).toThrow('QUOTELAKE_STOP_TIMEOUT="1e7": must be at most');
    expect(stopGraceMs(undefined, { QUOTELAKE_STOP_TIMEOUT: ' ' })).toBe(STOP_GRACE_MS);
  });
});

describe('exitOnInterrupt (migrate, vacuum: safe to cut anywhere)', () => {
  it('says what happened and what to do, and exits 130 at once; dispose() lets signals go', () => {
    const lines: string[] = [];
    const exits: number[] = [];
    const before = process.listenerCount('SIGINT');
    const migrate = exitOnInterrupt((l) => lines.push(l), MIGRATE_CUT_NOTICE, { exit: (c) => exits.push(c) });
    expect(process.listenerCount('SIGINT')).toBe(before + 1);
    try {
      process.emit('SIGINT', 'SIGINT');
      expect(lines).toEqual(['quotelake: SIGINT: migration stopped; run "quotelake migrate" (or any run) on this output again: an interrupted migration resumes where it stopped']);
      expect(exits).toEqual([130]);
    } finally {
      migrate.dispose();
    }
    expect(process.listenerCount('SIGINT')).toBe(before);
    const vacuum = exitOnInterrupt((l) => lines.push(l), VACUUM_CUT_NOTICE, { exit: (c) => exits.push(c) });
    try {
      process.emit('SIGTERM', 'SIGTERM');
      expect(lines[1]).toBe('quotelake: SIGTERM: vacuum stopped; every file it deleted was unreferenced and the tables are whole: run it again to delete the rest');
      expect(exits).toEqual([130, 130]);
    } finally {
      vacuum.dispose();
    }
    expect(process.listenerCount('SIGTERM')).toBe(before);
  });
});
