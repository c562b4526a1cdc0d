/**
 * SIGINT/SIGTERM: the first one aborts the run through its AbortSignal (completed batches are
 * committed and the state saved); a second one exits at once with 130.
 *
 * The first one also starts a watchdog: systemd and Kubernetes send one TERM and KILL a few seconds
 * later, and a graceful stop can hang where no AbortSignal reaches (a file-system call that never
 * returns: a dead NFS server, a FIFO nobody reads). If the run has not ended after `graceMs`, the
 * process says so and exits 130 itself. That is safe at any point: every commit is a journal plus
 * renames that the next run finishes or undoes, so an exit mid-commit loses no committed data.
 */
import { endEarlyStop, exitNow } from './early-stop.js';
import { EXIT_INTERRUPTED } from './exit-codes.js';
import { timerSecondsMs } from './seconds-option.js';
import type { Resumption } from '../runtime/keeps-state.js';
import type { LastWords } from '../runtime/last-words.js';

export { exitNow };

/** Under the 5 s an operator (or an orchestrator's grace period) can expect, with room to flush. */
export const STOP_GRACE_MS = 4000;

/**
 * How long a hard stop waits for the last words (a run's record marked `interrupted`) before it ends
 * the process: short, as the stop is "at once", and bounded, as a write to a hung file system
 * never returns. A signal more ends it without waiting.
 */
export const LAST_WORDS_MS = 300;

export interface Interrupts {
  readonly signal: AbortSignal;
  /** What is written when the process is ended at once (second signal, watchdog), within LAST_WORDS_MS. */
  readonly lastWords: LastWords;
  /** The signal that stopped the run, if one did. */
  received(): NodeJS.Signals | undefined;
  dispose(): void;
}

/** What each command says as it stops: a run, a compaction and the emulator stop different work. */
export interface StopWords {
  /** The first signal's notice; undefined says nothing (`serve` promises one line on stderr, ever). */
  stopping(sig: NodeJS.Signals): string | undefined;
  hung(sig: NodeJS.Signals, seconds: number): string;
  again(sig: NodeJS.Signals): string;
}

/**
 * What a hard stop (second signal, watchdog) says the next run does: only a pipeline that keeps its
 * checkpoints and does not poll resumes; an NDJSON look starts over and a polling run takes its
 * rounds anew, as its summary says. Pipelines that differ get only what holds for all of them.
 */
export function runStopWords(resumptions: readonly Resumption[]): StopWords {
  const kinds = new Set(resumptions);
  const only = kinds.size <= 1 ? ([...kinds][0] ?? 'resumed') : undefined;
  const next = NEXT_RUN[only ?? 'mixed'];
  return {
    stopping: (sig) => `quotelake: ${sig}: stopping after the current batch and committing finished work (send it again to quit at once)`,
    hung: (sig, s) => `quotelake: ${sig}: the run did not stop within ${s} s; exiting now (${only === 'resumed' ? `committed work is safe; ${next}` : next})`,
    again: (sig) => `quotelake: ${sig} again: exiting now; ${next}`,
  };
}

const NEXT_RUN: Record<Resumption | 'mixed', string> = {
  resumed: 'the next run resumes from the last commit',
  'no-state': 'the rows written so far are kept, and the next run delivers the whole window again (this output keeps no state)',
  polling: 'the rounds committed are kept; a polling run is not resumed: the next run takes all its rounds anew',
  mixed: 'committed work is safe; the next run resumes the pipelines that keep checkpoints and do not poll, and starts the others over',
};

export const RUN_STOP_WORDS: StopWords = runStopWords(['resumed']);

export interface InterruptOptions {
  readonly exit?: (code: number) => void;
  readonly graceMs?: number;
  /** Default: a run's (RUN_STOP_WORDS). */
  readonly words?: StopWords;
}

/** --stop-timeout, else QUOTELAKE_STOP_TIMEOUT (seconds), else STOP_GRACE_MS: one rule for every command that stops on a signal. */
export function stopGraceMs(flag: number | undefined, env: NodeJS.ProcessEnv): number {
  // Empty is unset, as for every QUOTELAKE_ variable.
  const text = env.QUOTELAKE_STOP_TIMEOUT?.trim() || undefined;
  const given = flag ?? (text !== undefined ? Number(text) : undefined);
  if (given === undefined) return STOP_GRACE_MS;
  const shown = flag === undefined ? `QUOTELAKE_STOP_TIMEOUT=${JSON.stringify(text)}` : `--stop-timeout ${String(given)}`;
  return timerSecondsMs(given, shown, 'e.g. --stop-timeout 30');
}

export function handleInterrupts(say: (line: string) => void, options: InterruptOptions = {}): Interrupts {
  const exit = options.exit ?? (() => exitNow());
  const graceMs = options.graceMs ?? STOP_GRACE_MS;
  const words = options.words ?? RUN_STOP_WORDS;
  const controller = new AbortController();
  let first: NodeJS.Signals | undefined;
  const writes = new Set<() => Promise<void>>();
  let ending = false;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    exit(EXIT_INTERRUPTED);
  };
  const endNow = () => {
    if (ending || writes.size === 0) return end();
    ending = true;
    // Not unref'd: the process must end by exit(), whether the writes land or not.
    const timer = setTimeout(end, LAST_WORDS_MS);
    void Promise.all([...writes].map((write) => write().catch(() => undefined))).then(() => {
      clearTimeout(timer);
      end();
    });
  };
  const on = (sig: NodeJS.Signals) => {
    if (first === undefined) {
      first = sig;
      const notice = words.stopping(sig);
      if (notice !== undefined) say(notice);
      // Not cleared by dispose(): what follows the run (closing connections, printing) must not hang either.
      // unref(): a run that stops in time exits on its own, without waiting for the watchdog.
      setTimeout(() => {
        say(words.hung(sig, graceMs / 1000));
        endNow();
      }, graceMs).unref();
      controller.abort();
      return;
    }
    if (!ending) say(words.again(sig));
    endNow();
  };
  endEarlyStop();
  process.on('SIGINT', on);
  process.on('SIGTERM', on);
  return {
    signal: controller.signal,
    lastWords: {
      add: (write) => {
        writes.add(write);
        return () => void writes.delete(write);
      },
    },
    received: () => first,
    dispose: () => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
    },
  };
}

/**
 * SIGINT/SIGTERM for a command whose work is safe to cut anywhere (`migrate` resumes an interrupted
 * migration, `vacuum` deletes only what no log references): it says so, and what to do next, and
 * exits 130 at once instead of dying without a word. Its lock stays behind on purpose: let go of
 * first, another command could take the lake while this one still writes; left by a process that
 * is gone, it is taken over by the next command on this host (runtime/output-lock.ts).
 */
export function exitOnInterrupt(say: (line: string) => void, notice: (sig: NodeJS.Signals) => string, options: { exit?: (code: number) => void } = {}): { dispose(): void } {
  const exit = options.exit ?? (() => exitNow());
  const on = (sig: NodeJS.Signals) => {
    say(notice(sig));
    exit(EXIT_INTERRUPTED);
  };
  // Its own words from here, in place of the generic stop of early-stop.ts.
  endEarlyStop();
  process.on('SIGINT', on);
  process.on('SIGTERM', on);
  return {
    dispose: () => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
    },
  };
}
