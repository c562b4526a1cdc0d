import { commandWord } from './command-word.js';

/** The commands that log (and take --log-format: a test holds this to the commands' own options). */
export const LOGGING_COMMANDS: ReadonlySet<string> = new Set(['run', 'worker', 'compact', 'migrate', 'repair']);

/**
 * JSON log lines asked for (--log-format json, else QUOTELAKE_LOG_FORMAT=json) by a command that
 * logs, read from argv itself: a failure before or while parsing must still print as a JSON line.
 */
export function wantsJsonLogs(argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  if (!LOGGING_COMMANDS.has(commandWord(argv) ?? '')) return false;
  const at = argv.findIndex((a) => a === '--log-format' || a.startsWith('--log-format='));
  if (at >= 0) return (argv[at] === '--log-format' ? argv[at + 1] : argv[at]!.slice('--log-format='.length)) === 'json';
  return env.QUOTELAKE_LOG_FORMAT?.trim().toLowerCase() === 'json';
}
