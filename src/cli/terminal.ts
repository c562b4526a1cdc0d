/**
 * The only door to the user's terminal: everything printed goes through here and is redacted of
 * every secret the CLI learned (the token), so no code path can echo it by accident.
 */
import type { Writable } from 'node:stream';
import { redactText } from '../api/index.js';

export interface Terminal {
  readonly stdout: Writable;
  readonly stderr: Writable;
  /** stderr is a terminal: progress may draw bars. */
  readonly stderrIsTTY: boolean;
  /** Mask this secret in everything printed from now on. */
  addSecret(secret: string): void;
  redact(text: string): string;
  /** One line (or block) to stderr; a newline is added. */
  err(text: string): void;
  /** Text to stdout, as is (plus redaction). */
  out(text: string): void;
}

export function createTerminal(options: { stdout?: Writable; stderr?: Writable; stderrIsTTY?: boolean } = {}): Terminal {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const secrets = new Set<string>();
  const redact = (text: string): string => {
    let out = text;
    // Longest first so a secret that contains another is masked whole.
    for (const s of [...secrets].sort((a, b) => b.length - a.length)) out = redactText(out, s);
    return out;
  };
  return {
    stdout,
    stderr,
    stderrIsTTY: options.stderrIsTTY ?? Boolean((stderr as { isTTY?: boolean }).isTTY),
    addSecret(secret) {
      if (secret.length > 0) secrets.add(secret);
    },
    redact,
    err(text) {
      stderr.write(`${redact(text)}\n`);
    },
    out(text) {
      stdout.write(redact(text));
    },
  };
}
