/**
 * The plans file both sides read: custom plans by name (`plans:`), each a built-in plan with some
 * limits changed or lifted, and, for the emulator only, extra tokens (`tokens:`). This is the one
 * parser of the file and of its `plans:` section. It holds no limit of its own: the client
 * (src/api/plans.ts) and the emulator (src/emulator/plans.ts) each map a CustomPlan onto their own
 * table of the base plan, so a wrong number on one side still shows up at the wire.
 *
 * The client reads `plans:` only and never a token from this file: the token stays in a flag or
 * QUOTELAKE_TOKEN.
 */
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { PlansFileError } from './errors.js';
import { isPlanName, PLAN_NAMES, type PlanName } from './plan-names.js';

/** A request-count limit: a positive integer, or lifted altogether. */
export type CountLimit = number | 'unlimited';

/** A custom plan as written: every limit left out is the base plan's. */
export interface CustomPlan {
  readonly name: string;
  readonly base: PlanName;
  /** Requests per sliding 1 s (replacing the base's window, which is 10 s on Free). */
  readonly perSecond?: CountLimit | undefined;
  readonly perMinute?: CountLimit | undefined;
  readonly perDay?: CountLimit | undefined;
  /** 0 = no gap. */
  readonly batchKlineGapMs?: number | undefined;
  readonly suspensionGapMs?: number | undefined;
  readonly batchKlineItemCap?: number | undefined;
  /** null = only the 8 KiB URL bounds a depth/trade request. */
  readonly tickCodesCap?: number | null | undefined;
  /** Stock market the plan is limited to (as the All-* plans); null = every market. */
  readonly market?: 'HK' | 'CN' | 'US' | null | undefined;
}

export interface PlansDocument {
  readonly file: string;
  readonly plans: readonly CustomPlan[];
  /** The emulator's section, not checked here (the client ignores it); undefined when absent. */
  readonly tokens: unknown;
}

/** Letters, digits, `-` and `_`: a plan name becomes part of a demo token sent in a URL. */
export const CUSTOM_PLAN_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

const count = z.union([z.int().positive(), z.literal('unlimited')]);
const gap = z.int().nonnegative().max(86_400_000);

const planSchema = z.strictObject({
  name: z.string().regex(CUSTOM_PLAN_NAME, 'must be 1-64 letters, digits, "-" or "_"'),
  base: z.enum(PLAN_NAMES).default('professional'),
  perSecond: count.optional(),
  perMinute: count.optional(),
  perDay: count.optional(),
  batchKlineGapMs: gap.optional(),
  suspensionGapMs: gap.optional(),
  batchKlineItemCap: z.int().positive().optional(),
  tickCodesCap: z.int().positive().nullable().optional(),
  market: z.enum(['HK', 'CN', 'US']).nullable().optional(),
});

const documentSchema = z.strictObject({
  plans: z.array(planSchema).optional(),
  tokens: z.unknown().optional(),
});

/** Read and parse a plans file (`.json`, or YAML for any other name). */
export async function readPlansFile(file: string): Promise<PlansDocument> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new PlansFileError(file, `cannot read: ${(e as Error).message}`);
  }
  const json = file.toLowerCase().endsWith('.json');
  let raw: unknown;
  try {
    raw = json ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    throw new PlansFileError(file, `not valid ${json ? 'JSON' : 'YAML'}: ${(e as Error).message}`);
  }
  return parsePlansDocument(file, raw);
}

/** Check the document's shape and its `plans:` section; `file` names it in errors. */
export function parsePlansDocument(file: string, raw: unknown): PlansDocument {
  // An empty YAML file is null: a file with nothing in it defines nothing.
  const parsed = documentSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.length ? issue.path.join('.') : undefined;
    throw new PlansFileError(file, issue?.message ?? 'invalid', field);
  }
  const plans = parsed.data.plans ?? [];
  const seen = new Set<string>();
  plans.forEach((p, i) => {
    if (isPlanName(p.name)) {
      throw new PlansFileError(file, `"${p.name}" is a built-in plan: give the custom plan its own name (and base: ${p.name})`, `plans.${i}.name`);
    }
    if (seen.has(p.name)) throw new PlansFileError(file, `"${p.name}" is defined twice`, `plans.${i}.name`);
    seen.add(p.name);
  });
  return { file, plans, tokens: parsed.data.tokens };
}

/** A count limit of a custom plan, or the base's when not given; "unlimited" is +Infinity. */
export function countLimit(value: CountLimit | undefined, base: number): number {
  if (value === 'unlimited') return Number.POSITIVE_INFINITY;
  return value ?? base;
}

/** Every plan name a document makes valid: the seven built-in ones, then its custom plans. */
export function knownPlanNames(doc: PlansDocument | undefined): string[] {
  return [...PLAN_NAMES, ...(doc?.plans.map((p) => p.name) ?? [])];
}

/** The custom plan of that name, if the document defines one. */
export function findCustomPlan(doc: PlansDocument | undefined, name: string): CustomPlan | undefined {
  return doc?.plans.find((p) => p.name === name);
}
