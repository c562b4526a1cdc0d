/**
 * The logger of a command other than `run` (compact, migrate): the same levels, formats, colours
 * and redaction as a run's lines, so one log collector and one `jq` line read them all. Its
 * notices (a signal, a failure) follow the same format (json-notices.ts).
 */
import type { Clock } from '../core/clock.js';
import { createLogger, type LeveledLogger } from '../runtime/logger.js';
import { logFormatOf, type LogArgs } from './shared-options.js';
import { useJsonNotices } from './json-notices.js';
import type { Terminal } from './terminal.js';

export function commandLogger(args: LogArgs, env: NodeJS.ProcessEnv, terminal: Terminal, clock: Clock, fields: Record<string, unknown>): LeveledLogger {
  const format = logFormatOf(args, env);
  useJsonNotices(terminal, format, clock);
  return createLogger({
    level: args['log-level'],
    format,
    // Colour only for a person at a terminal who did not turn it off (the terminal's own choice).
    color: terminal.stderrIsTTY && terminal.colors.isColorSupported,
    clock,
    // The terminal's redaction: any secret the command learned stays out of its lines too.
    write: (line) => void terminal.stderr.write(terminal.redact(line)),
    base: fields,
  });
}
