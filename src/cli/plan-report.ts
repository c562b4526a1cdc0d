/** `quotelake plan` and `run --dry-run`: what a run will cost, without sending a request. */
import { planLimits, poolPlanLimits, QuotaStore, streamTokenLimits, tokenHash16, type PoolToken, type QuotaStatus } from '../api/index.js';
import { planCoversCodes } from '../api/plan-market.js';
import type { SharedDayCount } from '../api/redis/index.js';
import { sharedDayKey } from './shared-day-counts.js';
import { spanAnchor, systemClock, type Clock } from '../core/clock.js';
import { planPipeline, type PipelinePlan } from '../plan/index.js';
import { checkpointSink } from '../runtime/checkpoint-sink.js';
import { readLakeId } from '../lake/layout/index.js';
import { CheckpointStore } from '../runtime/checkpoint-store.js';
import { stateResetCommand } from '../runtime/state-reset-command.js';
import { quotaStateDir, withCommandState } from './lake-location.js';
import { keepsState } from '../runtime/keeps-state.js';
import { checkPipelinePathRoom } from '../runtime/pipeline-path-room.js';
import { checkOutputPlacement, checkRemoteOutputPlacement, checkStateDirPlacement } from '../runtime/state-dir-placement.js';
import { isS3Url } from '../core/s3-url.js';
import type { PipelineJob } from './pipeline-job.js';
import { formatDuration, n } from './progress/progress-figures.js';
import { registry } from './registry.js';
import { chooseTarget } from './service-target.js';
import { EXIT_QUOTA } from './exit-codes.js';
import { quotaVerdict, sayPlanVerdicts } from './plan-verdict.js';
import { sayOutsideMarket } from './plan-market-notice.js';
import { packageVersion } from '../lake/package-version.js';
import { emitJson, type Terminal } from './terminal.js';

export interface PlanReport {
  readonly pipeline: string;
  readonly file: string;
  readonly service: { readonly embedded: boolean; readonly plan: string };
  readonly output: { readonly dir: string; readonly stateDir: string; readonly format: string };
  readonly quota: { readonly used: number; readonly limit: number; readonly remaining: number; readonly resetAt: string };
  readonly plan: PipelinePlan;
  /** The plan's verdict (plan-verdict.ts): 75 when the run would stop at the daily quota, else 0; `plan` exits with it. */
  readonly exitCode: number;
}

/** `pool`: several tokens (token-pool-settings.ts): the plan counts their rates and their days together. */
export interface PlanJobOptions {
  fullRefresh?: boolean;
  pool?: readonly PoolToken[] | undefined;
  s3Endpoint?: string | undefined;
  /** Requests the pipelines before this one in the command plan on the same quota: a run sends them first. */
  spentBefore?: number;
  /** With a coordinator: the day counts its Redis holds (shared-day-counts.ts), which a run charges instead of the quota file. */
  sharedDays?: ReadonlyMap<string, SharedDayCount>;
}

/**
 * Every pipeline of a command, in the order a run takes them: one that shares its token and quota
 * files with earlier ones plans on what they leave of today's quota.
 */
export async function planJobs(jobs: readonly PipelineJob[], clock: Clock, options: Omit<PlanJobOptions, 'spentBefore'>): Promise<PlanReport[]> {
  const spent = new Map<string, number>();
  const reports: PlanReport[] = [];
  for (const job of jobs) {
    const key = quotaKey(job, options.pool);
    const report = await planJob(job, clock, { ...options, spentBefore: spent.get(key) ?? 0 });
    spent.set(key, (spent.get(key) ?? 0) + report.plan.totalRequests);
    reports.push(report);
  }
  return reports;
}

/** Which daily count a pipeline's requests go to: its tokens' quota files (never printed). */
function quotaKey(job: PipelineJob, pool: readonly PoolToken[] | undefined): string {
  const target = chooseTarget(job.resolved, job.plans, pool);
  const tokens = (target.pool ?? [{ token: target.token }]).map((t) => t.token).sort();
  const { settings } = job.resolved;
  return JSON.stringify([quotaStateDir(settings.outputDir, settings.stateDir, process.env), tokens]);
}

/**
 * What `plan` and `run --dry-run` print and exit with: every pipeline's plan, as text or one JSON
 * document, and the verdict on today's quota (plan-verdict.ts).
 */
export async function printPlans(terminal: Terminal, jobs: readonly PipelineJob[], clock: Clock, options: Omit<PlanJobOptions, 'spentBefore'>, json: boolean): Promise<number> {
  const reports = await planJobs(jobs, clock, options);
  sayOutsideMarket(terminal, reports);
  const exitCode = sayPlanVerdicts(terminal, reports);
  if (json) emitJson(terminal, { quotelake: packageVersion(), command: 'plan', exitCode, plans: reports }, false);
  else for (const r of reports) terminal.out(`${renderPlan(r)}\n`);
  return exitCode;
}

export async function planJob(job: PipelineJob, clock: Clock = systemClock, options: PlanJobOptions = {}): Promise<PlanReport> {
  const { settings } = job.resolved;
  // As the run it plans will, before anything is read: a run that would be refused is not planned.
  const local = (dir: string) => (isS3Url(dir) ? undefined : dir);
  checkPipelinePathRoom(job.pipeline, registry, { output: local(settings.outputDir), stateDir: local(settings.stateDir) });
  checkStateDirPlacement(local(settings.outputDir), local(settings.stateDir));
  await checkOutputPlacement(local(settings.outputDir));
  const now = clock.now();
  const target = chooseTarget(job.resolved, job.plans, options.pool);
  const tokens = target.pool ?? [{ token: target.token, plan: target.plan }];
  const statuses = await Promise.all(
    tokens.map((t) =>
      new QuotaStore({
        stateDir: quotaStateDir(settings.outputDir, settings.stateDir, process.env),
        token: t.token,
        limit: planLimits(t.plan, target.plans).perDay,
        clock,
        ...(job.pipeline.service?.quotaTimeZone ? { timeZone: job.pipeline.service.quotaTimeZone } : {}),
      })
        .status()
        .then((status) => withSharedDay(status, t.token, options.sharedDays)),
    ),
  );
  const tokenPlans = tokens.map((t) => planLimits(t.plan, target.plans));
  const limits = poolPlanLimits(tokenPlans);
  // A source that is one stream runs on the token the pool gives it first, among those with quota
  // left today and, when some cover every code of the pipeline, among those.
  const open = tokens.filter((_, i) => statuses[i]!.remaining > 0);
  const candidates = (open.length > 0 ? open : tokens).map((t) => planLimits(t.plan, target.plans));
  const covering = candidates.filter((l) => planCoversCodes(l, pipelineCodes(job.pipeline.source)));
  const streamPlan = tokens.length > 1 ? streamTokenLimits(covering.length > 0 ? covering : candidates) : undefined;
  const quota = {
    used: statuses.reduce((a, q) => a + q.used, 0),
    limit: statuses.reduce((a, q) => a + q.limit, 0),
    remaining: statuses.reduce((a, q) => a + q.remaining, 0),
    resetAt: statuses.reduce((a, q) => (q.resetAt < a ? q.resetAt : a), statuses[0]!.resetAt),
  };
  const writesLake = registry.some((d) => d.kind === 'sink' && d.type === job.pipeline.sink.type && d.writesLake === true);
  const checkpoints =
    keepsState(job.pipeline, registry) && options.fullRefresh !== true
      ? await withCommandState(
          settings.outputDir,
          settings.stateDir,
          process.env,
          async (state, lake) => {
            // As the run will: an s3:// prefix inside a lake is refused, and checkpoints another output's runs saved too.
            if (lake.remote) await checkRemoteOutputPlacement(lake.storage);
            const tie = writesLake ? { id: await readLakeId(lake.remote ? lake.storage : settings.outputDir), where: settings.outputDir } : undefined;
            return new CheckpointStore(state, job.pipeline.name, checkpointSink(job.pipeline.sink), tie, stateResetCommand(job.pipeline.name, settings.outputDir, settings.stateDir, lake.remote ? lake.storage.endpoint : undefined)).load();
          },
          { s3Endpoint: options.s3Endpoint },
        )
      : new Map();
  const plan = planPipeline(job.pipeline, { plan: limits, ...(streamPlan ? { streamPlan, poolPlans: tokenPlans, poolRemaining: statuses.map((s) => s.remaining) } : {}), quotaRemaining: Math.max(0, quota.remaining - (options.spentBefore ?? 0)), now, spanFrom: spanAnchor(clock), checkpoints, registry });
  return {
    pipeline: job.pipeline.name,
    file: job.ref.display,
    service: { embedded: target.kind === 'embedded', plan: limits.name },
    output: { dir: settings.outputDir, stateDir: settings.stateDir, format: job.pipeline.sink.type },
    quota: { used: quota.used, limit: quota.limit, remaining: quota.remaining, resetAt: quota.resetAt.toISOString() },
    plan,
    exitCode: plan.coveredQuotaShort !== undefined ? EXIT_QUOTA : quotaVerdict(plan.totalRequests, plan.quota.remaining),
  };
}

/** The codes a pipeline's source asks for (none for a source without `codes`, as trading-halts). */
export function pipelineCodes(source: Record<string, unknown>): string[] {
  return Array.isArray(source.codes) ? source.codes.filter((c): c is string => typeof c === 'string') : [];
}

/** A coordinated run counts its day in Redis only: what the processes sharing the token used there. */
function withSharedDay(status: QuotaStatus, token: string, shared: ReadonlyMap<string, SharedDayCount> | undefined): QuotaStatus {
  if (shared === undefined) return status;
  const used = shared.get(sharedDayKey(tokenHash16(token), status.day))?.used ?? 0;
  return { ...status, used, remaining: Math.max(0, status.limit - used) };
}

const SHOWN_PARTITIONS = 6;

export function renderPlan(r: PlanReport): string {
  const p = r.plan;
  const lines = [`quotelake: plan of ${r.pipeline} (${r.file})`];
  const rows: [string, string][] = [
    ['source', `${p.source} -> dataset ${p.dataset}, ${r.output.format} under ${r.output.dir}`],
    ['service', `${r.service.embedded ? 'built-in emulator' : 'remote service'}, plan ${r.service.plan}`],
    ['requests', n(p.totalRequests)],
  ];
  for (const [endpoint, count] of Object.entries(p.requests).sort(([a], [b]) => a.localeCompare(b))) rows.push([`  ${endpoint}`, n(count)]);
  const share = Number.isFinite(p.quota.share) ? `${(p.quota.share * 100).toFixed(p.quota.share < 0.01 ? 3 : 1)}%` : 'all';
  if (!Number.isFinite(r.quota.limit)) rows.push(['quota', 'no daily cap (the plan lifts it)']);
  else rows.push([
    'quota',
    `${share} of the ${n(p.quota.remaining)} left today${p.quota.remaining < r.quota.remaining ? ' after the pipelines before it' : ''} (limit ${n(r.quota.limit)}; resets ${r.quota.resetAt})${p.quota.days > 1 ? `; needs ${p.quota.days} days` : ''}`,
  ]);
  rows.push(['time', `about ${formatDuration(p.estimatedMs / 1000)} at the plan's limits${p.quota.days > 1 ? ' (today\'s part)' : ''}`]);
  rows.push(['streams', n(p.streams.length)]);
  const parts = p.partitions.slice(0, SHOWN_PARTITIONS).join(', ');
  rows.push(['partitions', `${n(p.partitions.length)}${parts ? `: ${parts}${p.partitions.length > SHOWN_PARTITIONS ? ', ...' : ''}` : ''}`]);
  const width = Math.max(...rows.map(([k]) => k.length));
  for (const [k, v] of rows) lines.push(`  ${k.padEnd(width)}  ${v}`);
  if (p.notes.length > 0) {
    lines.push('  notes:');
    for (const note of p.notes) lines.push(`    - ${note}`);
  }
  return lines.join('\n');
}
