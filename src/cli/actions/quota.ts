/** `quotelake quota`: loaded only when the command runs. */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { isUnlimited, planLimits, redactToken, tokenHash16 } from '../../api/index.js';
import { parseQuotaText } from '../../api/quota-store.js';
import { demoToken } from '../../core/plan-names.js';
import { knownPlanNames, type PlansDocument } from '../../core/plans-file.js';
import { readCommandPlans } from '../command-plans.js';
import { checkStateDirFlag, checkStateOutput, quotaStateDir } from '../lake-location.js';
import { EXIT_OK } from '../exit-codes.js';
import { packageVersion } from '../../lake/package-version.js';
import { n } from '../progress/progress-figures.js';
import { emitJson, terminalFor } from '../terminal.js';
import { commandClock } from '../clock-option.js';
import type { ClockArgs, CoordinatorArgs, OutputArgs, ServiceArgs } from '../shared-options.js';
import { connectRedisCoordinator } from '../../api/connect-redis-coordinator.js';
import { coordinatorUrlOf } from '../coordinator.js';
import { describeError, formatError } from '../describe-error.js';
import { readSharedQuota, renderSharedQuota, type SharedQuotaEntry } from '../shared-quota.js';
import { refuseRepeatedTokens, resolveTokenPool } from '../token-pool-settings.js';
import { UsageError } from '../usage-error.js';
import { refuseIdleS3Endpoint } from '../idle-s3-endpoint.js';

export interface QuotaArgs extends ServiceArgs, OutputArgs, ClockArgs, CoordinatorArgs {
  json: boolean;
}

export interface QuotaEntry {
  /** The redacted token when it is known (flag, env, or a demo token), else its hash. */
  readonly token: string;
  readonly tokenHash: string;
  /** Quota day of the file's last update (YYYY-MM-DD in timeZone). */
  readonly day: string;
  readonly timeZone: string;
  /** Requests counted today (0 when the file is from an earlier day). */
  readonly usedToday: number;
  /** Of usedToday, requests sent whose answer was lost: charged, though the service may not have counted them. */
  readonly unknownToday: number;
  readonly limit: number;
  readonly remaining: number;
  readonly resetAt: string;
  readonly updatedAt: string | null;
}

interface QuotaFile {
  tokenHash?: string;
  day?: string;
  timeZone?: string;
  used?: number;
  unknown?: number;
  limit?: number;
  updatedAt?: string;
}

/** A quota file a run cannot read (damaged outside quotelake): runs on its token stop with exit 2 until it is removed. */
export interface DamagedQuotaFile {
  readonly token: string;
  readonly tokenHash: string;
  readonly file: string;
  readonly problem: string;
}

/**
 * Every quota file of a state dir, as of `now`; `known` maps token hashes to what to show. Files
 * that are not a count (`damaged`, when given, collects them) are not entries.
 */
export async function readQuotaEntries(
  stateDir: string,
  known: ReadonlyMap<string, string>,
  now: number = Date.now(),
  damaged: DamagedQuotaFile[] = [],
): Promise<QuotaEntry[]> {
  const dir = join(stateDir, 'quota');
  const names = await readdir(dir).catch(() => [] as string[]);
  const out: QuotaEntry[] = [];
  for (const name of names.filter((f) => /^[0-9a-f]{16}\.json$/.test(f)).sort()) {
    const hash = name.slice(0, 16);
    // Gone since the listing: nothing to show; a file that cannot be read holds no JSON either.
    const text = await readFile(join(dir, name), 'utf8').catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : ''));
    if (text === undefined) continue;
    const read = parseQuotaText(text);
    if ('problem' in read) {
      // A run stops at it, so it is named.
      damaged.push({ token: known.get(hash) ?? hash, tokenHash: hash, file: join(dir, name), problem: read.problem });
      continue;
    }
    const file = read.fields as QuotaFile;
    const zone = file.timeZone ?? 'UTC';
    const local = DateTime.fromMillis(now, { zone });
    const today = local.toISODate() ?? '';
    const limit = file.limit ?? 0;
    const used = file.day === today ? (file.used ?? 0) : 0;
    out.push({
      token: known.get(hash) ?? hash,
      tokenHash: hash,
      day: file.day ?? '',
      timeZone: zone,
      usedToday: used,
      unknownToday: file.day === today ? (file.unknown ?? 0) : 0,
      limit,
      remaining: Math.max(0, limit - used),
      resetAt: nextMidnight(local),
      updatedAt: file.updatedAt ?? null,
    });
  }
  return out;
}

/** A token whose plan has no daily cap: it writes no quota file, so its requests are not counted. */
export interface UncappedToken {
  readonly token: string;
  readonly tokenHash: string;
  readonly plan: string;
}

/** The quota's next reset, spelt as a run spells it (ISO 8601 UTC with milliseconds) so scripts can compare the two. */
function nextMidnight(local: DateTime): string {
  return new Date(local.startOf('day').plus({ days: 1 }).toMillis()).toISOString();
}

/** A token with no quota file: nothing counted today (UTC day). */
function emptyEntry(now: number): QuotaEntry {
  const local = DateTime.fromMillis(now, { zone: 'UTC' });
  return {
    token: '',
    tokenHash: '',
    day: local.toISODate() ?? '',
    timeZone: 'UTC',
    usedToday: 0,
    unknownToday: 0,
    limit: 0,
    remaining: 0,
    resetAt: nextMidnight(local),
    updatedAt: null,
  };
}

export async function quotaAction(args: QuotaArgs): Promise<number> {
    const terminal = terminalFor(args, process.env);
    const output = args.output ?? 'output';
    refuseIdleS3Endpoint(args['s3-endpoint'], [output]);
    const { absent } = await checkStateOutput(output);
    // A --state-dir that is a file is refused, one not there said (a mistyped path), as by `state show`.
    const stateDirAbsent = (await checkStateDirFlag(args['state-dir'])).absent;
    // Quota files stay on this machine: for an S3 output without --state-dir, the XDG state folder.
    const stateDir = quotaStateDir(output, args['state-dir'], process.env);
    const known = new Map<string, string>();
    let plans: PlansDocument | undefined;
    const plansFile = args['plans-file'] ?? (process.env.QUOTELAKE_PLANS_FILE?.trim() || undefined);
    if (plansFile !== undefined) plans = await readCommandPlans(plansFile);
    // Custom plans' demo tokens too (a plan without a daily cap leaves no quota file to show).
    for (const plan of knownPlanNames(plans)) known.set(tokenHash16(demoToken(plan)), `${demoToken(plan)} (the emulator's demo token)`);
    const token = args.token ?? process.env.QUOTELAKE_TOKEN?.trim();
    if (token) known.set(tokenHash16(token), redactToken(token));
    // A pool's tokens (QUOTELAKE_TOKENS, --tokens-file): one line each, redacted, the hash telling alike ones apart.
    const pool = await resolveTokenPool(args, process.env, { cwd: process.cwd() });
    for (const t of pool?.tokens ?? []) terminal.addSecret(t.token);
    // As a run refuses it: a repeated token would show one line, labelled by whichever entry came last.
    if (pool !== undefined) refuseRepeatedTokens(pool);
    pool?.tokens.forEach((t, i) => known.set(tokenHash16(t.token), `${redactToken(t.token)} [${tokenHash16(t.token).slice(0, 8)}] (pool token ${i + 1}, ${t.plan})`));
    const now = commandClock(args.clock, process.env).now();
    const damaged: DamagedQuotaFile[] = [];
    const entries = await readQuotaEntries(stateDir, known, now, damaged);
    const listed = (hash: string) => entries.some((e) => e.tokenHash === hash) || damaged.some((d) => d.tokenHash === hash);
    const uncapped: UncappedToken[] = [];
    // A run through the coordinator counts in Redis and writes no quota file: a token with no file is
    // then not "0 used" here (the shared table has its count), only named as having no file.
    const coordinatorUrl = coordinatorUrlOf(args, process.env);
    const noFile: string[] = [];
    // Through the coordinator, a token Redis holds no count of today gets a row of the shared table (0 used).
    const unsentShared: QuotaEntry[] = [];
    const addUnsent = (entry: QuotaEntry): void => {
      if (coordinatorUrl !== undefined) {
        noFile.push(entry.token);
        unsentShared.push(entry);
      } else entries.push(entry);
    };
    // The single token's plan, as a run takes it: a plan without a daily cap leaves no file to read.
    const plan = args.plan ?? (process.env.QUOTELAKE_PLAN?.trim() || undefined);
    if (token && plan !== undefined) {
      const hash = tokenHash16(token);
      const perDay = planLimits(plan, plans).perDay;
      if (!listed(hash)) {
        if (isUnlimited(perDay)) uncapped.push({ token: known.get(hash)!, tokenHash: hash, plan });
        // Nothing sent with it from this state dir yet: its line says so (a pool token's does too), rather than only other tokens' lines.
        else addUnsent({ ...emptyEntry(now), token: known.get(hash)!, tokenHash: hash, limit: perDay, remaining: perDay });
      }
    }
    for (const [i, t] of (pool?.tokens ?? []).entries()) {
      const hash = tokenHash16(t.token);
      // A plan no one knows is a mistake in the pool, said here as a run would say it (not a row left out).
      let limit: number;
      try {
        limit = planLimits(t.plan, plans).perDay;
      } catch (e) {
        throw new UsageError(`pool token ${i + 1} (${redactToken(t.token)}): ${(e as Error).message}`, 'give each token of the pool a plan that is built in or defined in the plans file');
      }
      if (listed(hash)) continue;
      if (isUnlimited(limit)) {
        uncapped.push({ token: known.get(hash)!, tokenHash: hash, plan: t.plan });
        continue;
      }
      // Nothing sent with it from this state dir yet: its whole day is left.
      addUnsent({ ...emptyEntry(now), token: known.get(hash)!, tokenHash: hash, limit, remaining: limit });
    }
    // --coordinator: the counts every process shares, read from Redis (fails with exit 1 when it is down).
    let shared: { target: string; tokens: SharedQuotaEntry[] } | undefined;
    if (coordinatorUrl !== undefined) {
      try {
        const coordinator = await connectRedisCoordinator(coordinatorUrl);
        try {
          const counted = await readSharedQuota(coordinator, known, now);
          const unsent = unsentShared.filter((e) => !counted.some((c) => c.tokenHash === e.tokenHash)).map(({ updatedAt: _, ...e }) => ({ ...e, processes: 0 }));
          shared = { target: coordinator.target, tokens: [...counted, ...unsent] };
        } finally {
          await coordinator.close();
        }
      } catch (error) {
        const described = describeError(error);
        terminal.err(formatError(described, terminal.colors));
        // A script reading --json gets the failure as a document, as from every other command.
        if (args.json) emitJson(terminal, { quotelake: packageVersion(), command: 'quota', exitCode: described.exitCode, error: { code: described.code, message: described.message, hint: described.hint } }, false);
        return described.exitCode;
      }
    }
    if (args.json) {
      terminal.out(`${JSON.stringify({ quotelake: packageVersion(), command: 'quota', stateDir, tokens: entries, ...(damaged.length > 0 ? { damaged } : {}), ...(uncapped.length > 0 ? { uncapped } : {}), ...(shared ? { coordinator: shared } : {}) }, null, 2)}\n`);
      return EXIT_OK;
    }
    if (shared) terminal.out(`${renderSharedQuota(shared.target, shared.tokens)}\n`);
    const noFileLines = noFile.map((t) => `  ${t}: no quota file here (a run through the coordinator writes none: its count is the shared one above)`);
    const uncappedLines = uncapped.map((u) => `  ${u.token}: plan ${u.plan} has no daily cap: its requests are not counted (no quota file is written)`);
    const damagedLines = damaged.map((d) => `  ${d.token}: ${d.file} is damaged (${d.problem}): a run on this token stops with exit 2 until the file is removed (today's count then restarts from 0 here)`);
    if (entries.length === 0 && uncapped.length + damaged.length > 0) {
      terminal.out(`quotelake: quota under ${join(stateDir, 'quota')}\n${[...damagedLines, ...noFileLines, ...uncappedLines].join('\n')}\n`);
    } else if (entries.length === 0) {
      terminal.out(
        `quotelake: no quota files under ${join(stateDir, 'quota')} (${shared ? 'a run through the coordinator writes none: its count is the shared one above; else ' : ''}nothing sent yet from this state dir on a plan with a daily cap; a plan without one writes none${absent && args['state-dir'] === undefined ? `; ${output} does not exist: check --output` : ''}${stateDirAbsent ? `; ${args['state-dir']} does not exist: check --state-dir` : ''})\n`,
      );
    } else {
      const width = Math.max(5, ...entries.map((e) => e.token.length));
      const lines = [`quotelake: quota under ${join(stateDir, 'quota')}`, `  ${'token'.padEnd(width)}  ${'used today'.padStart(12)}  ${'limit'.padStart(10)}  ${'left'.padStart(10)}  resets`];
      for (const e of entries) {
        lines.push(`  ${e.token.padEnd(width)}  ${n(e.usedToday).padStart(12)}  ${n(e.limit).padStart(10)}  ${n(e.remaining).padStart(10)}  ${e.resetAt} (${e.timeZone} midnight)`);
      }
      for (const e of entries) {
        if (e.unknownToday > 0) lines.push(`  ${e.token}: ${n(e.unknownToday)} of today's ${n(e.usedToday)} had their answer lost (timeout, reset): counted, though the service may not have`);
      }
      terminal.out(`${[...lines, ...damagedLines, ...noFileLines, ...uncappedLines].join('\n')}\n`);
    }
    return EXIT_OK;
}
