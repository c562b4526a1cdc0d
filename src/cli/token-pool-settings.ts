/**
 * Where a command's token pool comes from: --tokens-file, else QUOTELAKE_TOKENS_FILE, else
 * QUOTELAKE_TOKENS; never a pipeline file. Each token's plan is checked here (built in, or a
 * custom plan of the plans file), so a wrong one stops the command before any request.
 */
import { planLimits, type PoolToken } from '../api/index.js';
import type { PlansDocument } from '../core/plans-file.js';
import { knownPlanNames } from '../core/plans-file.js';
import { parseTokenList } from './token-list.js';
import { projectFolders, readTokensFile } from './tokens-file.js';
import { UsageError } from './usage-error.js';
import type { ResolvedSettings } from '../config/resolve-settings.js';

export interface TokenPoolSettings {
  readonly tokens: readonly PoolToken[];
  /** Where the pool came from, for messages: `--tokens-file <path>`, `QUOTELAKE_TOKENS_FILE`, `QUOTELAKE_TOKENS`. */
  readonly from: string;
}

export interface TokenPoolArgs {
  'tokens-file'?: string | undefined;
}

function nonEmpty(value: string | undefined): string | undefined {
  const v = value?.trim();
  return v === undefined || v === '' ? undefined : v;
}

/** The pool the command line and environment give, or undefined (then the single token of I4 applies). */
export async function resolveTokenPool(
  args: TokenPoolArgs,
  env: NodeJS.ProcessEnv,
  options: { cwd: string; pipelineFiles?: readonly string[] },
): Promise<TokenPoolSettings | undefined> {
  const fileFlag = nonEmpty(args['tokens-file']);
  const fileEnv = nonEmpty(env.QUOTELAKE_TOKENS_FILE);
  const file = fileFlag ?? fileEnv;
  if (file !== undefined) {
    const folders = await projectFolders(options.cwd, options.pipelineFiles ?? []);
    return { tokens: await readTokensFile(file, folders), from: fileFlag !== undefined ? `--tokens-file ${file}` : 'QUOTELAKE_TOKENS_FILE' };
  }
  const list = nonEmpty(env.QUOTELAKE_TOKENS);
  if (list !== undefined) return { tokens: parseTokenList(list), from: 'QUOTELAKE_TOKENS' };
  return undefined;
}

/**
 * Each token's plan known (built in or in `plans`), no token twice, no single token beside the
 * pool, and no --plan flag (`planFlag`): each entry carries its plan, and a flag the pool ignores
 * would pace nothing it says.
 */
export function checkTokenPool(pool: TokenPoolSettings, plans: PlansDocument | undefined, singleToken: string | undefined, planFlag?: string): void {
  refusePoolBeside(pool, singleToken, planFlag);
  refuseRepeatedTokens(pool);
  checkPoolPlans(pool, plans);
}

/** A pool with a single token or a --plan flag beside it: one of them is a mistake. */
export function refusePoolBeside(pool: TokenPoolSettings, singleToken: string | undefined, planFlag: string | undefined): void {
  if (planFlag !== undefined) {
    throw new UsageError(
      `--plan ${planFlag} does not apply with a token pool (${pool.from}): each of its entries carries its own plan`,
      'drop --plan, or give each token its plan in the pool (token:plan)',
    );
  }
  if (singleToken !== undefined) {
    throw new UsageError(
      `both a single token (--token or QUOTELAKE_TOKEN) and a token pool (${pool.from}) are set`,
      'unset one of them: a pool lists every token it uses, with its plan',
    );
  }
}

/** Each entry's plan built in or defined by `plans` (`plansFile` says where a custom plan goes). */
export function checkPoolPlans(pool: TokenPoolSettings, plans: PlansDocument | undefined, plansFile = '--plans-file'): void {
  pool.tokens.forEach((t, i) => {
    const which = `${pool.from}: entry ${i + 1} of ${pool.tokens.length}`;
    try {
      planLimits(t.plan, plans);
    } catch {
      // Not quoted: with token and plan swapped, the "plan" would be the token.
      throw new UsageError(`${which}: its plan is not a known plan (the entry is token:plan)`, `plans: ${knownPlanNames(plans).join(', ')} (a custom plan needs ${plansFile})`);
    }
  });
}

/** No token twice (said by position, never by its text): one token is one plan's limits, whatever plans its entries name. */
export function refuseRepeatedTokens(pool: TokenPoolSettings): void {
  const seen = new Set<string>();
  pool.tokens.forEach((t, i) => {
    if (seen.has(t.token)) throw new UsageError(`${pool.from}: entry ${i + 1} of ${pool.tokens.length} repeats an earlier token`, 'list each token once: one token has one set of limits');
    seen.add(t.token);
  });
}

/**
 * checkTokenPool for one pipeline's settings: its plans file, its single token, and its --plan when
 * a flag gave it (a plan from the environment or the file is not the user's word here).
 */
export function checkJobTokenPool(pool: TokenPoolSettings, job: { readonly plans?: PlansDocument | undefined; readonly resolved: ResolvedSettings }): void {
  const { settings, origin } = job.resolved;
  checkTokenPool(pool, job.plans, settings.token, origin.plan === 'flag' ? settings.plan : undefined);
}
