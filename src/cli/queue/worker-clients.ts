/**
 * The service clients of one worker process: one per (service, token or token pool, plan) for all
 * its slices, so its slices share one limiter (and, with the coordinator, every process's).
 *
 * A token pool (QUOTELAKE_TOKENS, --tokens-file) gives a TokenPool client as `run` does: streams go
 * to tokens with budget left and move only when their token is exhausted or limited, each token's
 * windows shared through the coordinator under its own hash. Its per-token use is what the worker
 * logs at the end and what the metrics follow.
 */
import { createClient, createTokenPool, TokenPool, type ClientOptions, type PoolToken, type ServiceClient } from '../../api/index.js';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/component.js';
import type { QuotelakeMetrics } from '../../runtime/metrics/index.js';
import type { Connections } from '../connections.js';
import type { PipelineJob } from '../pipeline-job.js';
import { meteredClientOptions } from '../run-metrics.js';
import { chooseTarget } from '../service-target.js';
import { checkJobTokenPool, type TokenPoolSettings } from '../token-pool-settings.js';
import { rateLimitNote } from '../rate-limit-note.js';
import { tokenSummaries, type TokenSummary } from '../token-summary.js';
import { setSettings } from '../../config/set-settings.js';

export interface WorkerClients {
  clientFor(job: PipelineJob): Promise<ServiceClient>;
  /** Each pool token's use in this process (empty without a pool). */
  tokenSummaries(): Promise<TokenSummary[]>;
  /** For each client the service kept refusing with 429 under its plan, what a run's note says (rate-limit-note.ts). */
  rateLimitNotes(): Promise<string[]>;
  closeAll(): Promise<void>;
}

export interface WorkerClientsOptions {
  readonly logger: Logger;
  readonly clock: Clock;
  readonly connections: Connections;
  readonly pool: TokenPoolSettings | undefined;
  readonly coordinator: ClientOptions['coordinator'];
  readonly metrics: QuotelakeMetrics | undefined;
  /** A token the output must never show (each of the target's, once known). */
  readonly addSecret: (token: string) => void;
}

export function workerClients(options: WorkerClientsOptions): WorkerClients {
  const clients = new Map<string, Promise<ServiceClient>>();
  const tracked: { token: string; plan: string; read: () => ReturnType<ServiceClient['quotaStatus']>; untrack: () => void }[] = [];

  const build = async (job: PipelineJob): Promise<ServiceClient> => {
    const target = chooseTarget(job.resolved, job.plans, options.pool?.tokens);
    const connection = await options.connections.get(target, job.pipeline.service?.quotaTimeZone);
    const common = {
      logger: options.logger,
      baseUrl: connection.baseUrl,
      ...(connection.plans ? { plans: connection.plans } : {}),
      stateDir: job.resolved.settings.stateDir,
      clock: options.clock,
      ...(job.pipeline.service?.quotaTimeZone ? { quotaTimeZone: job.pipeline.service.quotaTimeZone } : {}),
      // service.timeouts: also the lease of a slot in the shared limiter.
      timeouts: setSettings(job.pipeline.service?.timeouts),
      retry: setSettings(job.pipeline.service?.retry),
      ...(options.coordinator ? { coordinator: options.coordinator } : {}),
      ...meteredClientOptions(options.metrics),
      // The built-in emulator starts with this process: no earlier run's sends are in its windows.
      ...(connection.embedded ? { rememberSends: false } : {}),
    };
    const pool: readonly PoolToken[] = connection.pool ?? [{ token: connection.token, plan: connection.plan }];
    const client = connection.pool ? createTokenPool({ ...common, tokens: connection.pool }) : createClient({ ...common, token: connection.token, plan: connection.plan });
    // The metrics read each token's quota at every scrape while the worker lives (labelled by hash).
    if (options.metrics) {
      const m = options.metrics;
      pool.forEach((t, i) => {
        const read = client instanceof TokenPool ? async () => (await client.tokenQuotas())[i]! : () => client.quotaStatus();
        tracked.push({ token: t.token, plan: t.plan, read, untrack: m.trackQuota({ token: t.token }, t.plan, read) });
      });
    }
    return client;
  };

  return {
    async clientFor(job) {
      if (options.pool) checkJobTokenPool(options.pool, job);
      const target = chooseTarget(job.resolved, job.plans, options.pool?.tokens);
      for (const t of target.pool ?? [{ token: target.token }]) options.addSecret(t.token);
      const tokens = (target.pool ?? [{ token: target.token, plan: target.plan }]).map((t) => [t.token, t.plan]);
      const key = JSON.stringify([target.kind, target.kind === 'remote' ? target.baseUrl : '', tokens, target.plans?.file ?? '', setSettings(job.pipeline.service?.timeouts), setSettings(job.pipeline.service?.retry)]);
      let client = clients.get(key);
      if (client === undefined) {
        client = build(job);
        clients.set(key, client);
        // A failed start is not cached: the next slice tries again.
        client.catch(() => clients.delete(key));
      }
      return client;
    },
    async tokenSummaries() {
      const out: TokenSummary[] = [];
      for (const c of clients.values()) {
        const client = await c.catch(() => undefined);
        if (client instanceof TokenPool) out.push(...(await tokenSummaries(client).catch(() => [])));
      }
      return out;
    },
    async rateLimitNotes() {
      const notes: string[] = [];
      for (const c of clients.values()) {
        const client = await c.catch(() => undefined);
        const note = client ? rateLimitNote(client.plan, client.requestOutcomes?.(), options.coordinator?.target) : undefined;
        if (note !== undefined) notes.push(note);
      }
      return notes;
    },
    async closeAll() {
      // Each token's final figures, read once more before its client closes: the last textfile
      // write comes after, and a short-lived worker may never have been scraped.
      for (const t of tracked) {
        const q = await t.read().catch(() => undefined);
        if (q) options.metrics?.quota({ token: t.token }, t.plan, q);
        t.untrack();
      }
      for (const c of clients.values()) await (await c.catch(() => undefined))?.close().catch(() => undefined);
    },
  };
}
