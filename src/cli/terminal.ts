/**
 * The only door to the user's terminal: everything printed goes through here and is redacted of
 * every secret the CLI learned (the token), so no code path can echo it by accident.
 */
import type { Writable } from 'node:stream';
import { redactSecrets } from '../core/redact.js';
import { colorEnabled, colors, type Colors } from './colors.js';
import { envSecrets } from './env-secrets.js';
import type { ServiceArgs } from './shared-options.js';

/**
 * What a notice is, for its JSON line: the level (default warn) and the event it reports, with
 * any fields that say more (the emulator's url, an error's code and hint...).
 */
export interface NoticeFields {
  readonly level?: 'info' | 'warn' | 'error';
  readonly event: string;
  readonly [field: string]: unknown;
}

/** Makes a notice's JSON line (json-notices.ts); given the secrets to mask, in every form. */
export type NoticeLine = (text: string, fields: NoticeFields, secrets: readonly string[]) => string;

/** What draws on stderr below the log lines (the progress bars): lines go above it, never through it. */
export interface StderrOverlay {
  /** Writes `text` (a line or block, newline added) above the drawing and draws it again below. */
  log(text: string): void;
}

export interface Terminal {
  readonly stdout: Writable;
  readonly stderr: Writable;
  /** stderr is a terminal that can move its cursor (not TERM=dumb): progress may draw bars. */
  readonly stderrIsTTY: boolean;
  /** Colours for stderr text; every formatter is the identity when colour is off. */
  readonly colors: Colors;
  /**
   * While set, err() lines go through it (the progress display keeps them above its bars, so a
   * signal's notice or a log line never lands inside a bar line). Unset with undefined.
   */
  setOverlay(overlay: StderrOverlay | undefined): void;
  /** Mask this secret in everything printed from now on. */
  addSecret(secret: string): void;
  redact(text: string): string;
  /** One line (or block) to stderr; a newline is added. */
  err(text: string): void;
  /**
   * From now on notices are JSON lines made by `line` (json-notices.ts: the log's shape): with
   * --log-format json, stderr stays lines a log collector or jq reads to the end.
   */
  jsonNotices(line: NoticeLine): void;
  /**
   * A line quotelake says outside the log (the built-in emulator, a signal, a failure): `asText`
   * for a person (by default the message itself), or a JSON line after jsonNotices().
   */
  notice(message: string, fields: NoticeFields, asText?: string): void;
  /** Text to stdout, as is (plus redaction). */
  out(text: string): void;
}

export function createTerminal(
  options: { stdout?: Writable; stderr?: Writable; stderrIsTTY?: boolean; color?: boolean; env?: Readonly<Record<string, string | undefined>> } = {},
): Terminal {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const secrets = new Set<string>(envSecrets(options.env ?? process.env));
  let overlay: StderrOverlay | undefined;
  const redact = (text: string): string => (secrets.size > 0 ? redactSecrets(text, secrets) : text);
  let noticeLine: NoticeLine | undefined;
  const err = (text: string): void => {
    if (overlay) overlay.log(redact(text));
    else stderr.write(`${redact(text)}\n`);
  };
  return {
    stdout,
    stderr,
    // TERM=dumb (Emacs shell-mode, some CI consoles) cannot move the cursor: no bars there, plain lines.
    stderrIsTTY: options.stderrIsTTY ?? (Boolean((stderr as { isTTY?: boolean }).isTTY) && (options.env ?? process.env).TERM !== 'dumb'),
    colors: colors(options.color ?? false),
    setOverlay(next) {
      overlay = next;
    },
    addSecret(secret) {
      if (secret.length > 0) secrets.add(secret);
    },
    redact,
    err,
    jsonNotices(line) {
      noticeLine = line;
    },
    notice(message, fields, asText = message) {
      err(noticeLine ? noticeLine(message, fields, [...secrets]) : asText);
    },
    out(text) {
      stdout.write(redact(text));
    },
  };
}

/** Secrets known before anything else happens: masked in every line printed afterwards. */
export function terminalFor(args: ServiceArgs & { color?: boolean | undefined }, env: NodeJS.ProcessEnv): Terminal {
  const terminal = createTerminal({ color: colorEnabled({ isTTY: Boolean(process.stderr.isTTY), env, flag: args.color }), env });
  if (args.token) terminal.addSecret(args.token);
  return terminal;
}

/** The --json document: stdout, unless stdout carries NDJSON data (then stderr). */
export function emitJson(terminal: Terminal, doc: unknown, toStderr: boolean): void {
  const text = `${JSON.stringify(doc, null, 2)}\n`;
  if (toStderr) terminal.stderr.write(terminal.redact(text));
  else terminal.out(text);
}

