/**
 * Which service a command talks to. No base URL and no token: the built-in emulator with the demo
 * token of the plan (default professional; a custom plan's `demo-<name>`, the emulator getting the
 * same custom plans). A base URL needs a token and a plan; a token needs a base URL (there is no
 * default real URL). A token never comes from the plans file.
 */
import type { PoolToken } from '../api/index.js';
import type { Clock } from '../core/clock.js';
import { demoToken, PLAN_NAMES } from '../core/plan-names.js';
import { baseUrlProblem } from '../core/base-url.js';
import { redactUrl } from '../core/redact.js';
import type { PlansDocument } from '../core/plans-file.js';
import type { ResolvedSettings } from '../config/resolve-settings.js';
import { UsageError } from './usage-error.js';

interface TargetPlan {
  /** A built-in plan, or a custom plan of `plans`. */
  readonly plan: string;
  /** The plans file the plan may come from (custom plans only are read from it). */
  readonly plans?: PlansDocument | undefined;
  /** Several tokens, each on its plan (`token` and `plan` are then the first's); see token-pool-settings.ts. */
  readonly pool?: readonly PoolToken[] | undefined;
}

export type ServiceTarget =
  | ({ readonly kind: 'embedded'; readonly token: string } & TargetPlan)
  | ({ readonly kind: 'remote'; readonly baseUrl: string; readonly token: string } & TargetPlan);

const WHERE = { flag: 'flag', env: 'environment', file: 'pipeline file', default: 'default' } as const;

export function chooseTarget(resolved: ResolvedSettings, plans?: PlansDocument, pool?: readonly PoolToken[]): ServiceTarget {
  const { settings, origin } = resolved;
  const withPlans = plans ? { plans } : {};
  if (pool !== undefined && pool.length > 0) {
    // Each token has its plan: --plan and QUOTELAKE_PLAN do not apply. No base URL: the built-in emulator (demo tokens).
    const first = pool[0]!;
    const common = { token: first.token, plan: first.plan, pool, ...withPlans };
    return settings.baseUrl === undefined ? { kind: 'embedded', ...common } : { kind: 'remote', baseUrl: baseUrlOf(settings.baseUrl), ...common };
  }
  const plan = settings.plan ?? 'professional';
  if (settings.baseUrl === undefined && settings.token === undefined) return { kind: 'embedded', token: demoToken(plan), plan, ...withPlans };
  if (settings.token === undefined) {
    throw new UsageError(
      `a base URL is set (${WHERE[origin.baseUrl ?? 'default']}: ${redactUrl(settings.baseUrl ?? '')}) but no token`,
      'set QUOTELAKE_TOKEN (or --token); or drop the base URL to use the built-in emulator',
    );
  }
  if (settings.baseUrl === undefined) {
    throw new UsageError(
      'a token is set but no base URL: quotelake has no default service address',
      'set QUOTELAKE_BASE_URL (or --base-url, or service.baseUrl in the pipeline); for the local emulator run "quotelake serve"',
    );
  }
  if (origin.plan === 'default') {
    throw new UsageError('the token\'s plan is not set, and the client paces requests by it', `set QUOTELAKE_PLAN (or --plan, or service.plan in the pipeline): ${PLAN_NAMES.join(', ')}`);
  }
  return { kind: 'remote', baseUrl: baseUrlOf(settings.baseUrl), token: settings.token, plan, ...withPlans };
}

function baseUrlOf(text: string): string {
  const problem = baseUrlProblem(text);
  if (problem !== undefined) throw new UsageError(problem.message, problem.hint);
  return text;
}

export interface ServiceConnection extends TargetPlan {
  readonly baseUrl: string;
  readonly token: string;
  readonly embedded: boolean;
  close(): Promise<void>;
}

/** What the one stderr line about the built-in emulator says, and its fields for a JSON line. */
export type Announce = (line: string, fields: { event: 'embedded-emulator'; url: string; plan?: string; tokens?: number }) => void;

/** Starts the built-in emulator when the target says so; `announce` gets the one stderr line. */
export async function connect(target: ServiceTarget, options: { quotaTimeZone?: string; clock?: Clock; announce: Announce }): Promise<ServiceConnection> {
  if (target.kind === 'remote') {
    return { baseUrl: target.baseUrl, token: target.token, plan: target.plan, plans: target.plans, pool: target.pool, embedded: false, close: async () => undefined };
  }
  // Loaded only here: a run against a remote service never pays for the emulator's ~40 modules.
  const { startEmulator } = await import('../emulator/server.js');
  const emu = await startEmulator({
    host: '127.0.0.1',
    port: 0,
    // The same custom plans as the client's, each with its demo token: a replay plan is one setting.
    ...(target.plans ? { customPlans: target.plans.plans } : {}),
    ...(options.quotaTimeZone !== undefined ? { quotaTimeZone: options.quotaTimeZone } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    log: () => undefined,
  });
  if (target.pool) {
    options.announce(
      `quotelake: no base URL given: using the built-in emulator at ${emu.url} with a pool of ${target.pool.length} tokens (it knows the demo tokens only; set QUOTELAKE_BASE_URL for a real service)`,
      { event: 'embedded-emulator', url: emu.url, tokens: target.pool.length },
    );
  } else {
    options.announce(
      `quotelake: no base URL or token given: using the built-in emulator at ${emu.url} with the ${target.plan} plan's demo token (set QUOTELAKE_BASE_URL and QUOTELAKE_TOKEN for a real service)`,
      { event: 'embedded-emulator', url: emu.url, plan: target.plan },
    );
  }
  return { baseUrl: emu.url, token: target.token, plan: target.plan, plans: target.plans, pool: target.pool, embedded: true, close: () => emu.close() };
}
