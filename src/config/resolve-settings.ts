/**
 * Precedence of run settings: flag > environment > pipeline file > default. Pure: the CLI passes
 * process.env and its parsed flags. The token comes from a flag or QUOTELAKE_TOKEN only, never a file.
 */
import { ConfigError } from '../core/errors.js';
import { didYouMean } from '../core/did-you-mean.js';
import { isPlanName, PLAN_NAMES } from '../core/plan-names.js';
import { isS3Url } from '../core/s3-url.js';

export interface Settings {
  readonly baseUrl?: string | undefined;
  readonly token?: string | undefined;
  /** A built-in plan, or (with `plansFile`) a custom plan the CLI checks against that file. */
  readonly plan?: string | undefined;
  /** Plans file of custom plans (flag/env: as given; pipeline file: resolved against its folder by the caller). */
  readonly plansFile?: string | undefined;
  readonly outputDir: string;
  readonly stateDir: string;
  /** Sink type override, e.g. `parquet`, `arrow`, `ndjson`. */
  readonly format?: string | undefined;
  /** ISO instants bounding the data to fetch. */
  readonly since?: string | undefined;
  readonly until?: string | undefined;
  readonly codes?: readonly string[] | undefined;
}

export type SettingKey = keyof Settings;
export type SettingOrigin = 'flag' | 'env' | 'file' | 'default';

type Loose = { readonly [K in SettingKey]?: Settings[K] | undefined };

export interface SettingsInput {
  readonly flags?: Loose;
  /** The process environment (only QUOTELAKE_BASE_URL, QUOTELAKE_TOKEN, QUOTELAKE_PLAN, QUOTELAKE_PLANS_FILE are read). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** What the pipeline file says (never a token). */
  readonly file?: Omit<Loose, 'token'>;
  readonly defaults?: Loose;
}

export interface ResolvedSettings {
  readonly settings: Settings;
  /** Where each value came from, for `--explain`-style messages. */
  readonly origin: Readonly<Partial<Record<SettingKey, SettingOrigin>>>;
}

export const DEFAULT_OUTPUT_DIR = 'output';

/** Where state lives when nothing says: `<output>/.state` (I5); for `s3://bucket/prefix`, the lake's own `_quotelake/state/`. */
export function stateDirFor(outputDir: string): string {
  const root = outputDir.replace(/\/+$/, '');
  return isS3Url(root) ? `${root}/_quotelake/state` : `${root}/.state`;
}

function envSettings(env: Readonly<Record<string, string | undefined>>): Loose {
  const nonEmpty = (v: string | undefined) => (v === undefined || v.trim() === '' ? undefined : v.trim());
  return {
    baseUrl: nonEmpty(env.QUOTELAKE_BASE_URL),
    token: nonEmpty(env.QUOTELAKE_TOKEN),
    plan: nonEmpty(env.QUOTELAKE_PLAN),
    plansFile: nonEmpty(env.QUOTELAKE_PLANS_FILE),
  };
}

const PLAN_SOURCE: Readonly<Record<SettingOrigin, string>> = { flag: '--plan', env: 'QUOTELAKE_PLAN', file: 'service.plan', default: 'plan' };

/**
 * A plan name that is not built in, and no plans file from any layer to define it. `planOrigin` says
 * which layer named the plan, so the CLI can point at the pipeline file's line when it was the file.
 */
export class PlanWithoutPlansFileError extends ConfigError {
  /** `plansFrom`: where a plans file may come from, when not every layer's (a worker's plan: its own flag or variable). */
  constructor(
    readonly plan: string,
    readonly planOrigin: SettingOrigin,
    plansFrom?: string,
  ) {
    // A name near a built-in one ("Basic", "profesional") is a typo, not a custom plan.
    const meant = didYouMean(plan, PLAN_NAMES);
    // Any layer's plans file serves any layer's plan: the file's own first when the file named the plan.
    const files = plansFrom ?? (planOrigin === 'file' ? 'service.plansFile, --plans-file or QUOTELAKE_PLANS_FILE' : '--plans-file, QUOTELAKE_PLANS_FILE or service.plansFile');
    super(`${PLAN_SOURCE[planOrigin]}: "${plan}" is not one of ${PLAN_NAMES.join(', ')}${meant ? ` (did you mean "${meant}"?)` : ` (a custom plan needs a plans file: ${files})`}`);
  }
}

const KEYS: readonly SettingKey[] = ['baseUrl', 'token', 'plan', 'plansFile', 'outputDir', 'stateDir', 'format', 'since', 'until', 'codes'];

export function resolveSettings(input: SettingsInput): ResolvedSettings {
  const layers: Array<[SettingOrigin, Loose]> = [
    ['flag', input.flags ?? {}],
    ['env', envSettings(input.env ?? {})],
    ['file', { ...(input.file ?? {}), token: undefined }],
    ['default', input.defaults ?? {}],
  ];
  const values: Record<string, unknown> = {};
  const origin: Partial<Record<SettingKey, SettingOrigin>> = {};
  for (const key of KEYS) {
    for (const [name, layer] of layers) {
      const v = layer[key];
      if (v !== undefined) {
        values[key] = v;
        origin[key] = name;
        break;
      }
    }
  }
  // A name that is not built in can only be a custom plan, which needs a plans file; whether the
  // file defines it is checked where the file is read (the CLI), since this stays pure.
  const plan = values.plan as string | undefined;
  if (plan !== undefined && !isPlanName(plan) && values.plansFile === undefined) {
    throw new PlanWithoutPlansFileError(plan, origin.plan ?? 'default');
  }
  if (values.outputDir === undefined) {
    values.outputDir = DEFAULT_OUTPUT_DIR;
    origin.outputDir = 'default';
  }
  if (values.stateDir === undefined) {
    // I5: the state lives under whichever output directory won; a lake on S3 keeps it inside itself.
    values.stateDir = stateDirFor(String(values.outputDir));
    origin.stateDir = 'default';
  }
  return { settings: values as unknown as Settings, origin };
}
