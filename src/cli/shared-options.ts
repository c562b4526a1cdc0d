/** Options several commands share, declared once so their help text and parsing agree. */
import type { Argv } from 'yargs';
import type { LogLevel } from '../core/component.js';
import { didYouMean } from '../core/did-you-mean.js';
import { PLAN_NAMES } from '../core/plan-names.js';
import { trimTokenFlag } from './token-flag.js';
import { UsageError } from './usage-error.js';

export const FORMATS = ['parquet', 'arrow', 'ndjson'] as const;
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export const LOG_FORMAT_CHOICES = ['pretty', 'json'] as const;

export interface ServiceArgs {
  'base-url'?: string | undefined;
  token?: string | undefined;
  plan?: string | undefined;
  'plans-file'?: string | undefined;
  'tokens-file'?: string | undefined;
}

export interface OutputArgs {
  output?: string | undefined;
  'state-dir'?: string | undefined;
  's3-endpoint'?: string | undefined;
}

export interface DataArgs {
  format?: (typeof FORMATS)[number] | undefined;
  since?: string | undefined;
  until?: string | undefined;
  codes?: string | undefined;
}

export interface ClockArgs {
  clock?: string | undefined;
}

export interface ReportArgs {
  json: boolean;
  quiet: boolean;
  'log-level': LogLevel;
  'log-format'?: (typeof LOG_FORMAT_CHOICES)[number] | undefined;
  /** false with --no-color. */
  color?: boolean | undefined;
}

const SERVICE = 'Service:';
const OUTPUT = 'Output:';
const DATA = 'Data (override the pipeline file):';
const REPORT = 'Reporting:';

/** --plans-file: also validate's, the one service setting a pipeline file's check takes. */
export const plansFileOption = {
  type: 'string',
  group: SERVICE,
  describe: 'YAML or JSON file of custom plans (its plans: section; tokens: is the emulator\'s and never read here) (env QUOTELAKE_PLANS_FILE)',
} as const;

export function serviceOptions<T>(y: Argv<T>): Argv<T & ServiceArgs> {
  return y
    .option('base-url', {
      type: 'string',
      group: SERVICE,
      describe: 'Service root URL (env QUOTELAKE_BASE_URL). With neither this nor a token: the built-in emulator',
    })
    .option('token', {
      type: 'string',
      group: SERVICE,
      describe: 'API token (env QUOTELAKE_TOKEN, preferred: flags show in `ps`). Never printed',
      coerce: trimTokenFlag,
    })
    .option('plan', {
      type: 'string',
      group: SERVICE,
      describe: `The token's plan: ${PLAN_NAMES.join(', ')}, or a custom plan of --plans-file (env QUOTELAKE_PLAN)`,
    })
    .option('plans-file', plansFileOption)
    .option('tokens-file', {
      type: 'string',
      group: SERVICE,
      describe: 'Secrets file of several tokens, each with its plan (tokens: [{token, plan}]), outside the project and not world-readable (env QUOTELAKE_TOKENS_FILE; or QUOTELAKE_TOKENS=token:plan,token:plan)',
    }) as Argv<T & ServiceArgs>;
}

export interface CoordinatorArgs {
  coordinator?: string | undefined;
}

/** --coordinator: run, quota (and the worker) share one plan's limits and daily count through Redis. */
export function coordinatorOption<T>(y: Argv<T>): Argv<T & CoordinatorArgs> {
  return y.option('coordinator', {
    type: 'string',
    group: SERVICE,
    describe:
      'redis://host:port[/db]: share the plan\'s rate limits and daily quota with every process and host using the token (env QUOTELAKE_REDIS_URL). Without it: this process alone',
  }) as Argv<T & CoordinatorArgs>;
}

export function outputOptions<T>(y: Argv<T>): Argv<T & OutputArgs> {
  return y
    .option('output', { type: 'string', group: OUTPUT, describe: 'Output root: a folder or s3://bucket/prefix (default: the pipeline\'s outputDir, else output/)' })
    .option('state-dir', { type: 'string', group: OUTPUT, describe: 'State directory, a local folder: checkpoints, run manifests, quota files (default: <output>/.state; for s3://bucket/prefix the state is in the lake, s3://bucket/prefix/_quotelake/state/, and quota files in $XDG_STATE_HOME/quotelake)' })
    .option('s3-endpoint', s3EndpointOption) as Argv<T & OutputArgs>;
}

/** `--s3-endpoint`, shared by every command that takes an --output. */
export const s3EndpointOption = {
  type: 'string',
  group: OUTPUT,
  describe: 'S3-compatible store for an s3:// output, http(s)://host[:port] (env AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL); credentials from the AWS chain',
} as const;

/** `formats`: the sink types the command can write (enqueue cannot hand ndjson to its workers). */
export function dataOptions<T>(y: Argv<T>, formats: readonly (typeof FORMATS)[number][] = FORMATS): Argv<T & DataArgs> {
  return y
    .option('format', { choices: formats, group: DATA, describe: 'Sink type, replacing the pipeline\'s sink' })
    .option('since', { type: 'string', group: DATA, describe: 'Oldest data: ISO date/time (UTC) or a span back from now (90d, 12h)' })
    .option('until', { type: 'string', group: DATA, describe: 'Newest data (same forms as --since)' })
    .option('codes', { type: 'string', group: DATA, describe: 'Comma-separated product codes, e.g. BTCUSDT,AAPL.US' }) as Argv<T & DataArgs>;
}

/**
 * --clock: under "Data" beside the window it moves where the command has one (`{ data: true }`: run,
 * plan, enqueue); among the command's own options elsewhere, where "override the pipeline file"
 * would be untrue.
 */
export function clockOptions<T>(y: Argv<T>, where: { readonly data?: boolean } = {}): Argv<T & ClockArgs> {
  return y.option('clock', {
    type: 'string',
    ...(where.data === true ? { group: DATA } : {}),
    describe: 'Take this ISO instant as now; time runs on from it (env QUOTELAKE_CLOCK). Reproducible spans, e.g. against the built-in emulator',
  }) as Argv<T & ClockArgs>;
}

export interface LogArgs {
  'log-level': LogLevel;
  'log-format'?: (typeof LOG_FORMAT_CHOICES)[number] | undefined;
}

/** --log-level and --log-format: run, compact and migrate log the same way. */
export function logOptions<T>(y: Argv<T>): Argv<T & LogArgs> {
  return y
    .option('log-level', { choices: LOG_LEVELS, default: 'warn' as LogLevel, group: REPORT, describe: 'Log lines on stderr at or above this level' })
    .option('log-format', {
      choices: LOG_FORMAT_CHOICES,
      group: REPORT,
      describe: 'Log lines as readable text (pretty, the default; coloured on a terminal) or one JSON object per line (json) (env QUOTELAKE_LOG_FORMAT)',
    }) as Argv<T & LogArgs>;
}

export function reportOptions<T>(y: Argv<T>): Argv<T & ReportArgs> {
  return logOptions(
    y
      .option('json', { type: 'boolean', default: false, group: REPORT, describe: 'Print one JSON document (stdout, or stderr when stdout carries NDJSON data)' })
      .option('quiet', { type: 'boolean', alias: 'q', default: false, group: REPORT, describe: 'No progress and no summary table (errors still print)' }),
  ) as Argv<T & ReportArgs>;
}

export interface StopArgs {
  'stop-timeout'?: number | undefined;
}

/** --stop-timeout: `what` is the work a stop finishes before the process ends itself. */
export function stopTimeoutOption<T>(y: Argv<T>, what: string): Argv<T & StopArgs> {
  return y.option('stop-timeout', {
    type: 'number',
    describe: `Seconds a stop (SIGINT/SIGTERM) may take to ${what} before the process ends itself (default 4, env QUOTELAKE_STOP_TIMEOUT; raise it where the orchestrator allows more, e.g. systemd TimeoutStopSec)`,
  }) as Argv<T & StopArgs>;
}

/** --log-format, else QUOTELAKE_LOG_FORMAT (a value other than json or pretty is a usage error), else pretty. */
export function logFormatOf(args: Pick<ReportArgs, 'log-format'>, env: NodeJS.ProcessEnv): (typeof LOG_FORMAT_CHOICES)[number] {
  if (args['log-format']) return args['log-format'];
  const fromEnv = env.QUOTELAKE_LOG_FORMAT?.trim().toLowerCase();
  if (!fromEnv) return 'pretty';
  if ((LOG_FORMAT_CHOICES as readonly string[]).includes(fromEnv)) return fromEnv as (typeof LOG_FORMAT_CHOICES)[number];
  const near = didYouMean(fromEnv, LOG_FORMAT_CHOICES);
  throw new UsageError(`QUOTELAKE_LOG_FORMAT must be ${LOG_FORMAT_CHOICES.join(' or ')}, not "${fromEnv}"${near !== undefined ? `; did you mean ${near}?` : ''}`);
}

/** `--no-color`, for every command (its errors are coloured on a terminal too). */
export function colorOption<T>(y: Argv<T>): Argv<T & { color: boolean }> {
  return y.option('color', {
    type: 'boolean',
    default: true,
    global: true,
    describe: 'Colour on a terminal; --no-color (or env NO_COLOR) turns it off, env FORCE_COLOR turns it on off a terminal',
  }) as Argv<T & { color: boolean }>;
}

/** The --codes list, split on commas and blanks. */
export function parseCodes(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  const codes = text
    .split(/[\s,]+/)
    .map((c) => c.trim())
    .filter((c) => c !== '');
  return codes;
}

export const PRECEDENCE_EPILOGUE =
  'Settings precedence: command-line flag > environment variable (QUOTELAKE_BASE_URL, QUOTELAKE_TOKEN, QUOTELAKE_PLAN, QUOTELAKE_PLANS_FILE) > pipeline file > default. ' +
  'With no base URL and no token, quotelake starts its built-in emulator on a free loopback port and uses the demo token of the plan (default professional; a custom plan\'s is demo-<name>, the emulator getting the same plans file). ' +
  'Exit codes: 0 done, 1 failed, 2 usage or pipeline error, 3 rejected records dropped or diverted, 4 the service delivered less than asked for (see the notes), 5 another writer changed a Delta table (commit undone: run again), 75 daily quota used up (run again after the reset), 130 interrupted, 141 stdout closed by its reader with rows left unwritten.';
