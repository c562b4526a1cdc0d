/**
 * The one line of a failure that main's own error handler could not report (one of its files that
 * no longer loads in a damaged install, say): the error's message, masked of every token the
 * environment and --token hold, as a JSON line where JSON logs were asked for. It loads nothing
 * and describes nothing further, so it cannot fail the way the handler did; the exit stays 1.
 */
import { redactSecrets } from '../core/redact.js';
import { envSecrets } from './env-secrets.js';
import { flaggedToken } from './token-flag.js';
import { wantsJsonLogs } from './wants-json-logs.js';

export function lastResortLine(error: unknown, argv: readonly string[], env: NodeJS.ProcessEnv, now: Date): string {
  const secrets = [...envSecrets(env), flaggedToken(argv) ?? ''];
  const raw = error instanceof Error ? error.message : String(error);
  // One line: a message with line breaks (a stack pasted into it) would split a log collector's record.
  const message = redactSecrets(raw, secrets).replace(/\s*\n\s*/g, ' ').trim() || 'an error without a message';
  if (!wantsJsonLogs(argv, env)) return `quotelake: ${message}`;
  const type = error instanceof Error ? error.name : typeof error;
  return JSON.stringify({ level: 'error', time: now.toISOString(), event: 'error', code: 'QL_INTERNAL', err: { type, message }, msg: message });
}
