/**
 * The only door to the user's terminal: everything printed goes through here and is redacted of
 * every secret the CLI learned (the token), so no code path can echo it by accident.
 */
import type { Writable } from 'node:stream';
import { redactSecrets } from '../core/redact.js';
import type { ServiceArgs } from './shared-options.js';

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
  const redact = (text: string): string => (secrets.size > 0 ? redactSecrets(text, secrets) : text);
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

/** Secrets known before anything else happens: masked in every line printed afterwards. */
export function terminalFor(args: ServiceArgs, env: NodeJS.ProcessEnv): Terminal {
  const terminal = createTerminal();
  if (args.token) terminal.addSecret(args.token);
  if (env.QUOTELAKE_TOKEN) terminal.addSecret(env.QUOTELAKE_TOKEN.trim());
  return terminal;
}

/** The --json document: stdout, unless stdout carries NDJSON data (then stderr). */
export function emitJson(terminal: Terminal, doc: unknown, toStderr: boolean): void {
  const text = `${JSON.stringify(doc, null, 2)}\n`;
  if (toStderr) terminal.stderr.write(terminal.redact(text));
  else terminal.out(text);
}

