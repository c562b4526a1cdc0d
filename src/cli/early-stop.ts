/**
 * A SIGINT/SIGTERM that came while the command line was still loading (about half a second of a
 * `run`, before its own handlers: interrupts.ts) ended the process by the signal without a word (a
 * shell's 143). Nothing is sent or written before those handlers, so such a stop is clean: one line,
 * and exit 130 as for any interrupted run. Only for the commands whose stop exits 130 and that write
 * nothing before their handlers take over (migrate and vacuum take the output lock first), and for
 * serve, whose stop is exit 0 and says nothing: an emulator stopped before it listened has nothing
 * to close. No imports but three without any of their own (wants-json-logs.ts one of these):
 * bin.ts loads this first, before the rest.
 */
import { commandWord } from './command-word.js';
import { EXIT_INTERRUPTED } from './exit-codes.js';
import { wantsJsonLogs } from './wants-json-logs.js';

const STOPS_EARLY: ReadonlySet<string> = new Set(['run', 'compact', 'worker']);
/** serve's stop is the normal end of a service (README, "Stopping a run"): exit 0, its stderr untouched. */
const STOPS_QUIETLY: ReadonlySet<string> = new Set(['serve']);

let early: ((sig: NodeJS.Signals) => void) | undefined;

export function stopEarlyOnSignal(argv: readonly string[] = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env): void {
  // The command as the parser finds it, after options before it and their values (`--log-format json run`).
  const command = commandWord(argv) ?? '';
  if (STOPS_QUIETLY.has(command)) early = () => process.exit(0);
  else if (STOPS_EARLY.has(command)) {
    early = (sig) => {
      const text = `${sig}: stopped while starting, before anything was sent or written; run the command again`;
      // The shape of a notice under --log-format json (json-notices.ts), in real time: --clock is not read yet.
      const line = wantsJsonLogs(argv, env) ? JSON.stringify({ level: 'warn', time: new Date().toISOString(), event: 'signal', msg: text }) : `quotelake: ${text}`;
      process.stderr.write(`${line}\n`);
      process.exit(EXIT_INTERRUPTED);
    };
  } else return;
  process.on('SIGINT', early);
  process.on('SIGTERM', early);
}

/** The command's own handlers take over (interrupts.ts). */
export function endEarlyStop(): void {
  if (early === undefined) return;
  process.off('SIGINT', early);
  process.off('SIGTERM', early);
  early = undefined;
}
