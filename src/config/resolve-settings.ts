/**
 * Precedence of run settings: flag > environment > pipeline file > default. Pure: the CLI passes
 * process.env and its parsed flags. The token comes from a flag or QUOTELAKE_TOKEN only, never a file.
 */
import { ConfigError } from '../core/errors.js';
import { isPlanName, PLAN_NAMES, type PlanName } from '../core/plan-names.js';

export interface Settings {
  readonly baseUrl?: string | undefined;
  readonly token?: string | undefined;
  readonly plan?: PlanName | undefined;
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
  /** The process environment (only QUOTELAKE_BASE_URL, QUOTELAKE_TOKEN, QUOTELAKE_PLAN are read). */
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

function envSettings(env: Readonly<Record<string, string | undefined>>): Loose {
  const nonEmpty = (v: string | undefined) => (v === undefined || v.trim() === '' ? undefined : v.trim());
  const plan = nonEmpty(env.QUOTELAKE_PLAN);
  if (plan !== undefined && !isPlanName(plan)) {
    throw new ConfigError(`QUOTELAKE_PLAN: "${plan}" is not one of ${PLAN_NAMES.join(', ')}`);
  }
  return {
    baseUrl: nonEmpty(env.QUOTELAKE_BASE_URL),
    token: nonEmpty(env.QUOTELAKE_TOKEN),
    plan: plan as PlanName | undefined,
  };
}

const KEYS: readonly SettingKey[] = ['baseUrl', 'token', 'plan', 'outputDir', 'stateDir', 'format', 'since', 'until', 'codes'];

export function resolveSettings(input: SettingsInput): ResolvedSettings {
  const layers: Array<[SettingOrigin, Loose]> = [
    ['flag', input.flags ?? {}],
    ['env', envSettings(input.env ?? {})],
    ['file', { ...(input.file ?? {}), token: undefined }],
    ['default', input.defaults ?? {}],
  ];
  if (input.flags?.plan !== undefined && !isPlanName(input.flags.plan)) {
    throw new ConfigError(`--plan: "${input.flags.plan}" is not one of ${PLAN_NAMES.join(', ')}`);
  }
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
  if (values.outputDir === undefined) {
    values.outputDir = DEFAULT_OUTPUT_DIR;
    origin.outputDir = 'default';
  }
  if (values.stateDir === undefined) {
    // I5: the state lives under whichever output directory won.
    values.stateDir = `${String(values.outputDir).replace(/\/+$/, '')}/.state`;
    origin.stateDir = 'default';
  }
  return { settings: values as unknown as Settings, origin };
}
