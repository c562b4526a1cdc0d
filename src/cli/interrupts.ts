/**
 * SIGINT/SIGTERM: the first one aborts the run through its AbortSignal (completed batches are
 * committed and the state saved); a second one exits at once with 130.
 */
import { EXIT_INTERRUPTED } from './exit-codes.js';

export interface Interrupts {
  readonly signal: AbortSignal;
  /** The signal that stopped the run, if one did. */
  received(): NodeJS.Signals | undefined;
  dispose(): void;
}

export function handleInterrupts(say: (line: string) => void, exit: (code: number) => void = (c) => process.exit(c)): Interrupts {
  const controller = new AbortController();
  let first: NodeJS.Signals | undefined;
  const on = (sig: NodeJS.Signals) => {
    if (first === undefined) {
      first = sig;
      say(`quotelake: ${sig}: stopping after the current batch and committing finished work (send it again to quit at once)`);
      controller.abort();
      return;
    }
    say(`quotelake: ${sig} again: exiting now; the next run resumes from the last commit`);
    exit(EXIT_INTERRUPTED);
  };
  process.on('SIGINT', on);
  process.on('SIGTERM', on);
  return {
    signal: controller.signal,
    received: () => first,
    dispose: () => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
    },
  };
}
