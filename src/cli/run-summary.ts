/** The summary of one pipeline run: a table on stderr, or part of the `--json` document. */
import type { PoolQuotaStop } from '../api/index.js';
import { REJECTED_DIR } from '../lake/rejected-writer.js';
import type { Colors } from './colors.js';
import { byteSize as bytes, formatDuration, n } from './progress/progress-figures.js';
import { renderTokenSummaries, type TokenSummary } from './token-summary.js';

export type SummaryStatus = 'succeeded' | 'rejected-records' | 'incomplete' | 'quota-exhausted' | 'interrupted' | 'output-closed' | 'failed' | 'planned';

export interface RunSummary {
  readonly pipeline: string;
  readonly file: string;
  readonly runId?: string | undefined;
  readonly status: SummaryStatus;
  readonly exitCode: number;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly durationMs: number;
  readonly service: { readonly embedded: boolean; readonly plan: string; readonly baseUrl: string };
  /** `toStdout`: the records went to stdout (an NDJSON look or an ndjson sink on stdout), not into `dir`. */
  readonly output: { readonly dir: string; readonly stateDir: string; readonly format: string; readonly toStdout?: boolean };
  /**
   * False when a stopped run is not resumed by the next: the output keeps no state (an NDJSON look,
   * `--no-state`: the next delivers the whole window) or the source polls (the next takes all its
   * rounds anew); `notResumedBecause` says which.
   */
  readonly resumable?: boolean | undefined;
  readonly notResumedBecause?: 'no-state' | 'polling' | undefined;
  /** Requests sent per endpoint path. */
  readonly requests: Readonly<Record<string, number>>;
  readonly requestsTotal: number;
  /**
   * What became of the attempts: answered (counted by the service), unknown (sent, answer lost:
   * charged to the quota), unsent (never left: refunded); rateLimited: of answered, those refused
   * with 429 `rate limit` (refunded, sent again); dailyLimited: of answered, those refused with 429
   * `daily limit exceeded` (counted toward nothing by the service). `requests` counts answered + unknown.
   */
  readonly requestOutcomes?:
    | { readonly answered: number; readonly unknown: number; readonly unsent: number; readonly rateLimited?: number; readonly dailyLimited?: number }
    | undefined;
  /**
   * Rows per dataset: received from the source = written (new to the dataset) + merged (their key
   * was held already: they replaced a row) + rejected.
   */
  readonly rows: Readonly<Record<string, { received: number; written: number; merged: number; rejected: number; flawed?: number }>>;
  readonly files: { readonly count: number; readonly bytes: number; readonly paths: readonly string[] };
  readonly rejected: number;
  /** Where rejected records went: `<output>/_rejected/` (onReject: divert) or `dropped`; absent when none. */
  readonly rejectedTo?: string | undefined;
  readonly quota: {
    readonly used?: number | undefined;
    readonly limit?: number | undefined;
    readonly left?: number | undefined;
    /** Of `used`, requests sent whose answer was lost (charged: the service may have counted them). */
    readonly unknown?: number | undefined;
    /** When the daily quota resets (always given when the run stopped at the quota). */
    readonly resetAt?: string | undefined;
  };
  /** Per token of a pool (QUOTELAKE_TOKENS, --tokens-file): its use in this run, redacted; absent with one token. */
  readonly tokens?: readonly TokenSummary[] | undefined;
  /**
   * A pool stopped at the daily quota while some tokens still had quota: the tokens used up that
   * alone cover `codes`, and those with quota left (none covers them). Absent otherwise.
   */
  readonly quotaStop?: PoolQuotaStop | undefined;
  /** What the sources reported: codes missing or invalid, history that cannot reach `since`, ... */
  readonly notes: readonly string[];
  readonly coverage?: unknown;
  readonly manifest?: string | undefined;
  readonly error?: { readonly code: string; readonly message: string; readonly hint?: string | undefined } | undefined;
}

const STATUS_TEXT: Record<SummaryStatus, string> = {
  succeeded: 'done',
  'rejected-records': 'done, with rejected records',
  incomplete: 'done, but the service delivered less than asked for (see notes)',
  'quota-exhausted': 'stopped at the daily quota (resumable)',
  interrupted: 'interrupted (resumable)',
  'output-closed': 'stopped: stdout closed with rows left unwritten',
  failed: 'failed',
  planned: 'planned (dry run)',
};

/** A stopped run the next does not go on from: an output that keeps no state, or a polling source. */
const NOT_RESUMABLE: Record<'no-state' | 'polling', Partial<Record<SummaryStatus, string>>> = {
  'no-state': {
    'quota-exhausted': 'stopped at the daily quota (not resumable: this output keeps no state, so the next run starts over)',
    interrupted: 'interrupted (not resumable: this output keeps no state, so the next run starts over)',
  },
  polling: {
    'quota-exhausted': 'stopped at the daily quota (not resumed: a polling run takes all its rounds anew; the rounds committed are kept)',
    interrupted: 'interrupted (not resumed: a polling run takes all its rounds anew; the rounds committed are kept)',
  },
};

function statusText(s: RunSummary): string {
  return (s.resumable === false ? NOT_RESUMABLE[s.notResumedBecause ?? 'no-state'][s.status] : undefined) ?? STATUS_TEXT[s.status];
}

/** Requests sent, and those whose fate differs: answer lost (charged) or never sent (refunded). */
function requestsText(s: RunSummary): string {
  const o = s.requestOutcomes;
  const extra: string[] = [];
  if (o && o.unknown > 0) extra.push(`${n(o.unknown)} with the answer lost (charged to the quota)`);
  if (o && o.unsent > 0) extra.push(`${n(o.unsent)} attempt${o.unsent === 1 ? '' : 's'} never sent (no connection; not charged)`);
  if (o?.rateLimited) extra.push(`${n(o.rateLimited)} refused with 429 rate limit (not charged; sent again)`);
  if (o?.dailyLimited) extra.push(`${n(o.dailyLimited)} refused with 429 daily limit exceeded (not counted by the service; nothing more sent today)`);
  return `${n(s.requestsTotal)}${extra.length > 0 ? ` sent; ${extra.join(', ')}` : ''}`;
}

/** Two aligned columns. */
function table(rows: readonly (readonly [string, string])[]): string[] {
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`);
}

/** How a status reads at a glance on a terminal: green done, red failed, yellow anything between. */
function statusPaint(status: SummaryStatus, c: Colors): (text: string) => string {
  if (status === 'succeeded' || status === 'planned') return c.green;
  return status === 'failed' ? c.red : c.yellow;
}

/** With `colors` on (a terminal), the name and the status are coloured; off, the text is unchanged byte for byte. */
export function renderSummary(s: RunSummary, colors?: Colors): string {
  const rows: [string, string][] = [];
  const status = `${statusText(s)} (exit ${s.exitCode})`;
  rows.push(['status', colors ? statusPaint(s.status, colors)(status) : status]);
  rows.push(['duration', formatDuration(s.durationMs / 1000)]);
  rows.push(['service', `${s.service.embedded ? 'built-in emulator' : s.service.baseUrl}, plan ${s.service.plan}`]);
  const endpoints = Object.entries(s.requests).sort(([a], [b]) => a.localeCompare(b));
  rows.push(['requests', requestsText(s)]);
  for (const [endpoint, count] of endpoints) rows.push([`  ${endpoint}`, n(count)]);
  for (const [dataset, c] of Object.entries(s.rows)) {
    // Rows received after the last commit of a run that stopped on an error: the next run fetches
    // history again, but a snapshot (order books, trades) is of its moment and is gone.
    const uncommitted = c.received - c.written - c.merged - c.rejected;
    const fate = dataset === 'trade' || dataset === 'depth' ? 'lost: a snapshot is of its moment and cannot be fetched again' : 'the next run fetches them again';
    const tail = uncommitted > 0 ? ` + ${n(uncommitted)} not committed (${fate})` : '';
    rows.push([`rows ${dataset}`, `${n(c.received)} received = ${n(c.written)} written (new) + ${n(c.merged)} merged (key already held) + ${n(c.rejected)} rejected${tail}`]);
    // A pipeline without a transform writes what its source found wrong, marked: said, never only in the file.
    if (c.flawed) rows.push([`  with a flaw`, `${n(c.flawed)} written or merged with a flaw key (the source found ${c.flawed === 1 ? 'it' : 'them'} wrong): jq 'select(.flaw)'`]);
  }
  // Diverted records' files (NDJSON under _rejected/) are not the sink's format: counted apart.
  const rejectedFiles = s.files.paths.filter((p) => p.startsWith(`${REJECTED_DIR}/`)).length;
  rows.push([
    'files',
    s.output.toStdout === true && rejectedFiles === 0
      ? 'none: the records went to stdout as ndjson'
      : s.output.toStdout === true
        ? `${n(rejectedFiles)} of rejected records (${bytes(s.files.bytes)}) under ${s.output.dir}; the records went to stdout as ndjson`
        : rejectedFiles === 0
          ? `${n(s.files.count)} written (${bytes(s.files.bytes)}) under ${s.output.dir} as ${s.output.format}`
          : `${n(s.files.count - rejectedFiles)} written as ${s.output.format} + ${n(rejectedFiles)} of rejected records (${bytes(s.files.bytes)} in all) under ${s.output.dir}`,
  ]);
  if (s.rejected > 0) {
    rows.push(['rejected', s.rejectedTo === 'dropped' ? `${n(s.rejected)} records, dropped (onReject: drop; the log names each reason)` : `${n(s.rejected)} records, diverted to ${s.rejectedTo ?? `${s.output.dir}/_rejected/`}`]);
  }
  const q = s.quota;
  if (q.limit === Number.POSITIVE_INFINITY) rows.push(['quota', 'no daily cap (the plan lifts it)']);
  else if (q.left !== undefined && q.limit !== undefined) {
    const unknown = q.unknown ? ` (${n(q.unknown)} of today's use had the answer lost: counted)` : '';
    rows.push(['quota left', `${n(q.left)} of ${n(q.limit)} today${q.resetAt ? `, resets ${q.resetAt}` : ''}${unknown}`]);
  }
  else if (q.resetAt) rows.push(['quota', `resets ${q.resetAt}`]);
  if (s.tokens) rows.push(...renderTokenSummaries(s.tokens));
  if (s.runId) rows.push(['run', `${s.runId}${s.manifest ? ` (${s.manifest})` : ''}`]);
  const lines = [`${colors ? colors.bold(`quotelake: ${s.pipeline}`) : `quotelake: ${s.pipeline}`} (${s.file})`, ...table(rows)];
  if (s.notes.length > 0) {
    lines.push('  notes:');
    for (const note of s.notes) lines.push(`    - ${note}`);
  }
  if (s.coverage !== undefined && typeof s.coverage === 'object' && s.coverage !== null && 'text' in s.coverage) {
    for (const l of String((s.coverage as { text: unknown }).text).split('\n')) lines.push(`  ${l}`);
  }
  return lines.join('\n');
}
