#!/usr/bin/env node
/** The quotelake command line. The only place that touches process.exit and exit codes. */
// First: process-wide settings, before any module below compiles WebAssembly (see start-up.ts).
import './start-up.js';
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { AbortedError } from '../core/errors.js';
import { COMMANDS } from './commands/index.js';
import { QUEUE_ACTIONS } from './commands/queue.js';
import { STATE_SUBCOMMANDS } from './commands/state.js';
import { wordCompleter } from './complete-words.js';
import { commandWords, signedValueProblem, usageHint, withSuggestion } from './usage-suggestions.js';
import { describeError, formatError, formatErrorDetails, sayFailure, USAGE_HINT } from './describe-error.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from './exit-codes.js';
import { codeLoadFailureJsonLine } from './code-load-failure.js';
import { packageVersion } from '../lake/package-version.js';
import { colorOption, PRECEDENCE_EPILOGUE } from './shared-options.js';
import { colorEnabled } from './colors.js';
import { createTerminal, emitJson } from './terminal.js';
import { argvSendsNdjsonToStdout, jsonDocGoesToStderr } from './json-doc-stream.js';
import { UsageError } from './usage-error.js';
import { showsStack } from './wants-debug.js';
import { wantsJsonLogs } from './wants-json-logs.js';
import { systemClock } from '../core/clock.js';
import { checkNumberOptions } from './number-options-check.js';
import { checkTokenFlag, flaggedToken } from './token-flag.js';
import { lastResortLine } from './last-resort.js';
import { checkPathOptions } from './path-options-check.js';
import { checkValuelessOptions } from './valueless-options-check.js';
import { checkLoneDash } from './lone-dash.js';
import { checkRepeatedOptions } from './repeated-options-check.js';
import { checkSwitchValues } from './switch-values-check.js';
import { skipHelpCache } from './skip-help-cache.js';
import { stdoutFailure, stdoutFailureLines, watchStdout } from './stdout-failure.js';
import { writeStdoutWhole } from './whole-stdout-writes.js';
import { checkZstdSetting, usesZstd } from './zstd-setting.js';

/** Each command's name (the first word of its yargs `command`), for the hint of a usage error. */
const COMMAND_NAMES = COMMANDS.map((c) => String(c.command).split(' ')[0]!);
const SUBCOMMAND_NAMES = { state: STATE_SUBCOMMANDS };
/** The words a --json document's `command` names: a state subcommand, a queue action. */
const DOCUMENT_COMMANDS = { ...SUBCOMMAND_NAMES, queue: QUEUE_ACTIONS };

/** Run the CLI on `argv` (without node and script); resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  let cli = yargs(argv)
    .scriptName('quotelake')
    .usage('$0 <command> [options]\n\nTurn a market-data query service into data-lake files (Parquet, Arrow, NDJSON).')
    .strict()
    .recommendCommands()
    .demandCommand(1, 'Name a command; see --help.')
    .help()
    .alias('h', 'help')
    .version(packageVersion())
    .alias('V', 'version')
    .wrap(null)
    .example('$0 run demo', 'A first run: the built-in emulator, three days of K-lines as Parquet under output/')
    .example('$0 list', 'The pipelines you can run by name')
    .example('$0 inspect output', 'What the runs wrote')
    .epilogue(`${PRECEDENCE_EPILOGUE}\nMore: README.md, section "The command line".`)
    .check(checkPathOptions, true)
    .check(checkTokenFlag, true)
    .check((args, options) => checkNumberOptions(args, argv, (options as { number?: string[] } | undefined)?.number ?? []), true)
    .check((args, options) => checkRepeatedOptions(args, options as { array?: string[]; number?: string[] } | undefined, argv), true)
    .check((args, options) => checkValuelessOptions(args, argv, options as Parameters<typeof checkValuelessOptions>[2]), true)
    .check((args, options) => checkSwitchValues(args, argv, (options as { boolean?: string[] } | undefined)?.boolean ?? []), true)
    .fail((msg, err, y) => {
      // No command at all: the first thing a new user types; show them the commands.
      if (!err && argv.length === 0) y.showHelp((text: string) => process.stderr.write(`${text}\n\n`));
      if (!err && msg) msg = withSuggestion(msg, argv, Object.keys((cli as unknown as { getOptions(): { key: object } }).getOptions().key));
      throw err ?? new UsageError(msg, usageHint(argv, COMMAND_NAMES, SUBCOMMAND_NAMES));
    });
  // Only when a shell asks for words: yargs' own `completion` command would shadow ours (completion.ts).
  if (argv.includes('--get-yargs-completions')) cli = cli.completion('completion', false, wordCompleter(cli, argv.slice(argv.indexOf('--get-yargs-completions') + 1)));
  cli = colorOption(cli);
  for (const command of COMMANDS) cli = cli.command(command);
  skipHelpCache(cli);
  process.exitCode = undefined;
  const terminal = createTerminal({ color: colorEnabled({ isTTY: Boolean(process.stderr.isTTY), env: process.env, flag: !argv.includes('--no-color') }) });
  // A token on the command line is masked in error messages too (the environment's: env-secrets.ts).
  const tokenAt = argv.findIndex((a) => a === '--token');
  // Trimmed, as the option is (token-flag.ts): the token that is sent is the one to mask.
  const flagged = flaggedToken(argv);
  if (flagged) terminal.addSecret(flagged);
  try {
    // yargs reads a value starting with "-" after --token as options of its own, and would name them
    // ("Unknown arguments: secret-…"), which masking the token cannot catch: refuse it unechoed.
    if (tokenAt >= 0 && argv[tokenAt + 1]?.startsWith('-') === true) {
      throw new UsageError('--token is followed by a word starting with "-"', 'give the token as --token=VALUE when it starts with "-" (or in QUOTELAKE_TOKEN); a missing value is an empty --token');
    }
    checkLoneDash(argv);
    const signed = signedValueProblem(argv);
    if (signed !== undefined) throw new UsageError(signed, usageHint(argv, COMMAND_NAMES, SUBCOMMAND_NAMES));
    if (usesZstd(argv)) checkZstdSetting(process.env);
    await cli.parseAsync();
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT_OK;
  } catch (e) {
    const described = describeError(e);
    // The generic usage hint names the command that was run, when there is one.
    const d = described.hint === USAGE_HINT ? { ...described, hint: usageHint(argv, COMMAND_NAMES, SUBCOMMAND_NAMES) } : described;
    // A JSON line carries the stack and causes in `err` already. The log's writer loads only here.
    const json = wantsJsonLogs(argv, process.env);
    // A command's code that could not be loaded is the same failure as at start-up (bin.ts): the
    // same JSON line, with the fix in `hint` rather than joined to the message as the one text line has it.
    const loadLine = json && d.code === 'QL_TOO_MANY_FILES' && d.exitCode === EXIT_USAGE ? codeLoadFailureJsonLine(e, new Date()) : undefined;
    if (loadLine !== undefined) {
      process.stderr.write(`${loadLine}\n`);
      return EXIT_USAGE;
    }
    if (json) {
      // Under an open-file limit too low for the command's code, the log's writer may not load
      // either: the failure is then the line of code-load-failure.ts, never a silent exit 1.
      const notices = await import('./json-notices.js').catch((loadError: unknown) => loadError);
      if (!isModule(notices)) {
        const line = codeLoadFailureJsonLine(notices, new Date());
        if (line === undefined) throw notices;
        process.stderr.write(`${line}\n`);
        return EXIT_USAGE;
      }
      terminal.jsonNotices(notices.jsonNoticeLine(systemClock));
    }
    sayFailure(terminal, d, e);
    if (!json && showsStack(argv, d.code)) terminal.err(formatErrorDetails(e));
    if (argv.includes('--json')) {
      // `command` as the command's own documents name it, so a script reads every document alike.
      const command = commandWords(argv, COMMAND_NAMES, DOCUMENT_COMMANDS);
      emitJson(terminal, { quotelake: packageVersion(), ...(command !== undefined ? { command } : {}), exitCode: d.exitCode, error: { code: d.code, message: d.message, hint: d.hint } }, jsonDocGoesToStderr(e) || (await argvSendsNdjsonToStdout(argv)));
    }
    return d.exitCode;
  }
}

function isModule(value: unknown): value is typeof import('./json-notices.js') {
  return typeof (value as { jsonNoticeLine?: unknown } | null)?.jsonNoticeLine === 'function';
}

/** Exit once what was written to stdout and stderr has been handed to the OS. */
function exitAfterFlush(code: number): void {
  // An errored stdout hands its error to this write's callback before it emits the 'error' event.
  process.stdout.write('', (flushError) =>
    process.stderr.write('', () => {
      const failed = stdoutFailure(flushError);
      // A failure already said what went wrong; a command that thinks it succeeded has not.
      if (failed === undefined || code !== EXIT_OK) return process.exit(code);
      process.stderr.write(stdoutFailureLines(failed), () => process.exit(EXIT_FAILURE));
    }),
  );
}

/**
 * A stopped run can leave a source's concurrent request rejecting with AbortedError after nobody
 * awaits it any more; that is the abort working, not a crash. Anything else unhandled is a bug:
 * report it (redacted) and exit 1.
 */
function isAbort(reason: unknown): boolean {
  return reason instanceof AbortedError || (reason instanceof Error && reason.name === 'AbortError');
}
process.on('unhandledRejection', (reason) => {
  if (isAbort(reason)) return;
  const terminal = createTerminal();
  const described = describeError(reason);
  terminal.err(formatError(described));
  if (showsStack(hideBin(process.argv), described.code)) terminal.err(formatErrorDetails(reason));
  exitAfterFlush(EXIT_FAILURE);
});

// An abort rejection ignored above can get its handler a tick later (a read in flight when the
// signal came, awaited once the run winds down). Node then warns "PromiseRejectionHandledWarning"
// unless someone listens here: the rejection was expected and is handled, so there is nothing to say.
process.on('rejectionHandled', () => undefined);

watchStdout();
writeStdoutWhole();

/**
 * Node ends a process whose event loop has nothing left to do, with exit code 0, even while the
 * command still awaits: a promise that can never settle (a pipeline module whose top level awaits
 * forever) would end a run unrun and "successful". The command has not returned, so it failed.
 */
let finished = false;
process.on('beforeExit', () => {
  if (finished) return;
  finished = true;
  process.stderr.write(
    'quotelake: the command stopped before it finished: it was waiting for something that can no longer happen (nothing was left to run)\n' +
      '  hint: a pipeline module (.js/.mjs) whose top level awaits a promise that never settles does this; otherwise this looks like a bug in quotelake: please report it with the command\n',
  );
  exitAfterFlush(EXIT_FAILURE);
});

main(hideBin(process.argv))
  .then(
    (code) => code,
    // main's own handler failed: still one line, never a silent exit 1.
    (e: unknown) => {
      process.stderr.write(`${lastResortLine(e, hideBin(process.argv), process.env, new Date())}\n`);
      return EXIT_FAILURE;
    },
  )
  .then((code) => {
    finished = true;
    exitAfterFlush(code);
  });
