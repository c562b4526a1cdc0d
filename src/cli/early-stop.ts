/**
 * A SIGINT/SIGTERM that came while the command line was still loading (about half a second of a
 * `run`, before its own handlers: interrupts.ts) ended the process by the signal without a word (a
 * shell's 143). Nothing is sent or written before those handlers, so such a stop is clean: one line,
 * and exit 130 as for any interrupted run. Only for the commands whose stop exits 130 and that write
 * nothing before their handlers take over, and for serve, whose stop is exit 0 and says nothing: an
 * emulator stopped before it listened has nothing to close.
 *
 * Every other command (inspect, repair, state, plan, …, and migrate, vacuum and enqueue until their
 * own handlers) is stopped here for its whole life: one line saying what the stop left, and the
 * 130 of an interrupted command, for SIGTERM as for SIGINT (not a silent 143 for one and 130 for
 * the other). No imports but three without any of their own (wants-json-logs.ts one of these):
 * bin.ts loads this first, before the rest.
 */
import { commandIndex } from './command-word.js';
import { EXIT_INTERRUPTED } from './exit-codes.js';
import { wantsJsonLogs } from './wants-json-logs.js';

const STOPS_EARLY: ReadonlySet<string> = new Set(['run', 'compact', 'worker']);
/** serve's stop is the normal end of a service (README, "Stopping a run"): exit 0, its stderr untouched. */
const STOPS_QUIETLY: ReadonlySet<string> = new Set(['serve']);
/** Commands, or `command subcommand`, that only read: stopped anywhere, they changed nothing. */
const READS_ONLY: ReadonlySet<string> = new Set(['inspect', 'plan', 'quota', 'validate', 'list', 'schema', 'completion', 'state show', 'queue status', 'queue schedules']);

let early: ((sig: NodeJS.Signals) => void) | undefined;

/**
 * Ends the process now, as killed by SIGINT (a shell and a scheduler read 128 + 2 = 130). Not
 * process.exit(130): Node's exit joins its thread pool, so a thread stuck in a file-system call
 * (open() of a FIFO, a dead NFS mount) hangs the exit itself. With no listener left the signal's
 * default action applies, which ends the process whatever its threads are doing. stderr is
 * written synchronously (pipes, files and terminals on Linux), so the notice is out before.
 */
export function exitNow(): void {
  process.removeAllListeners('SIGINT');
  // The first process of a container (PID 1: `command: [quotelake, ...]` in a pod) is never ended by a
  // signal it has no handler for, its own included: the signal would be dropped and the run go on.
  // process.exit is all it has (it may wait for a thread stuck in a file-system call, as said above).
  if (process.pid === 1) process.exit(EXIT_INTERRUPTED);
  process.kill(process.pid, 'SIGINT');
}

/** Commands whose first word after them names what they do (`state reset`, `queue drop`). */
const HAS_SUBCOMMAND: ReadonlySet<string> = new Set(['state', 'queue']);

/** `<command> stopped…`, after `<signal>: `: what a command without handlers of its own left. */
function stopWords(command: string, argv: readonly string[], at: number): string {
  const sub = argv.slice(at + 1).find((w) => !w.startsWith('-'));
  const name = HAS_SUBCOMMAND.has(command) && sub !== undefined ? `${command} ${sub}` : command;
  // A dry run (repair, vacuum, migrate, state reset) reads what the command would change.
  if (READS_ONLY.has(name) || argv.includes('--dry-run')) return `${name} stopped; it only reads, so nothing was changed`;
  // The queue's writers (drop, unschedule) touch Redis only: no output, so no lock to speak of.
  // enqueue, before its own stop: it reads the pipeline and asks Redis; it opens no output.
  if (command === 'enqueue') return `${name} stopped before it finished; run it again (it changes only the queue in Redis, and what it queued so far is not queued twice)`;
  if (command === 'queue') return `${name} stopped before it finished; run it again (it changes only the queue in Redis: what it removed so far is gone, the rest is still there)`;
  return `${name} stopped before it finished; run it again (a lock it held on the output is taken over by the next command, as after any stop)`;
}

export function stopEarlyOnSignal(argv: readonly string[] = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env): void {
  // The command as the parser finds it, after options before it and their values (`--log-format json run`).
  const at = commandIndex(argv);
  if (at < 0) return;
  const command = argv[at]!;
  // The shape of a notice under --log-format json (json-notices.ts), in real time: --clock is not read yet.
  const say = (text: string) => {
    const line = wantsJsonLogs(argv, env) ? JSON.stringify({ level: 'warn', time: new Date().toISOString(), event: 'signal', msg: text }) : `quotelake: ${text}`;
    process.stderr.write(`${line}\n`);
  };
  if (STOPS_QUIETLY.has(command)) early = () => process.exit(0);
  else if (STOPS_EARLY.has(command)) {
    early = (sig) => {
      say(`${sig}: stopped while starting, before anything was sent or written; run the command again`);
      process.exit(EXIT_INTERRUPTED);
    };
  } else {
    // Its work may be under way (a read of a big lake, a request to a slow store): ended by a
    // signal of its own, as a hard stop of a run is, which a thread stuck in a file-system call cannot hold up.
    const words = stopWords(command, argv, at);
    early = (sig) => {
      say(`${sig}: ${words}`);
      exitNow();
    };
  }
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
