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
import { parseDataText } from './data-text.js';
import * as z from 'zod';
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

const NAME_RULE = 'must be 1-64 letters, digits, "-" or "_"';
const WHOLE_ABOVE_0 = 'must be a whole number above 0';
const COUNT = `${WHOLE_ABOVE_0}, or "unlimited"`;
const count = z.union([z.int({ error: COUNT }).positive({ error: COUNT }), z.literal('unlimited')], { error: COUNT });
const GAP = 'must be a whole number of milliseconds from 0 to 86400000';
const gap = z.int({ error: GAP }).min(0, { error: GAP }).max(86_400_000, { error: GAP });
const wholeAbove0 = z.int({ error: WHOLE_ABOVE_0 }).positive({ error: WHOLE_ABOVE_0 });
// "unlimited" is the word of the counts; this cap is lifted by null, which the message has to say.
const TICK_CAP = `${WHOLE_ABOVE_0}, or null (no cap: only the 8 KiB URL bounds a request)`;
const tickCodesCap = z.int({ error: TICK_CAP }).positive({ error: TICK_CAP }).nullable();

/** zod's words for a key the object does not take, in the file's own. */
const unknownKey = (takes: string) => (issue: { code: string; keys?: string[] }) =>
  issue.code === 'unrecognized_keys' ? `unknown key ${(issue.keys ?? []).map((k) => JSON.stringify(k)).join(', ')} (${takes})` : undefined;

const planShape = {
  name: z.string({ error: NAME_RULE }).regex(CUSTOM_PLAN_NAME, NAME_RULE),
  base: z.enum(PLAN_NAMES, { error: `must be one of ${PLAN_NAMES.join(', ')}` }).default('professional'),
  perSecond: count.optional(),
  perMinute: count.optional(),
  perDay: count.optional(),
  batchKlineGapMs: gap.optional(),
  suspensionGapMs: gap.optional(),
  batchKlineItemCap: wholeAbove0.optional(),
  tickCodesCap: tickCodesCap.optional(),
  market: z.enum(['HK', 'CN', 'US'], { error: 'must be HK, CN, US or null' }).nullable().optional(),
};

const planSchema = z.strictObject(planShape, { error: unknownKey(`a plan takes ${Object.keys(planShape).join(', ')}`) });

const documentSchema = z.strictObject(
  {
    plans: z.array(planSchema, { error: 'must be a list of plans' }).optional(),
    tokens: z.unknown().optional(),
  },
  {
    error: (issue) =>
      issue.code === 'invalid_type' ? 'expected a mapping (plans: and tokens:)' : unknownKey('the file takes plans and tokens')(issue),
  },
);

/** `plans[0].perSecond`: where a problem is, as a reader finds it in the file. */
function fieldOf(path: readonly PropertyKey[]): string | undefined {
  if (path.length === 0) return undefined;
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i > 0 ? '.' : ''}${String(p)}`)).join('');
}

/**
 * The value at `path` as written, for the message (`got 1.5`). A plans file may hold tokens
 * (`tokens:`), and a file named by mistake may be a tokens file: so only numbers, booleans and the
 * words of a plan's own keys (`base: gold`) are quoted back, never other text of the file.
 */
function givenAt(raw: unknown, path: readonly PropertyKey[]): string | undefined {
  let node = raw;
  for (const p of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[p];
  }
  if (node === undefined) return undefined;
  if (typeof node === 'number' || typeof node === 'boolean' || node === null) return String(node);
  if (typeof node === 'string') {
    const planKey = path.length === 3 && path[0] === 'plans' && typeof path[2] === 'string' && path[2] in planShape;
    return planKey && node.length <= 64 ? JSON.stringify(node) : `text (${node.length} characters, not shown)`;
  }
  return Array.isArray(node) ? 'a list' : 'a mapping';
}

/**
 * The file's text as data, parsed once; a syntax error says where it is and what kind it is, never
 * with an excerpt of the file (see givenAt).
 */
function parseText(file: string, text: string, json: boolean): unknown {
  const parsed = parseDataText(text, json);
  if (!parsed.ok) throw new PlansFileError(file, parsed.problem);
  return parsed.value;
}

/** Read and parse a plans file (`.json`, or YAML for any other name). */
export async function readPlansFile(file: string): Promise<PlansDocument> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new PlansFileError(file, `cannot read: ${(e as Error).message}`, undefined, true);
  }
  return parsePlansDocument(file, parseText(file, text, file.toLowerCase().endsWith('.json')));
}

/** Check the document's shape and its `plans:` section; `file` names it in errors. */
export function parsePlansDocument(file: string, raw: unknown): PlansDocument {
  // An empty YAML file is null: a file with nothing in it defines nothing.
  const parsed = documentSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const given = issue.code === 'unrecognized_keys' ? undefined : givenAt(raw, issue.path);
    throw new PlansFileError(file, `${issue.message}${given !== undefined ? `, got ${given}` : ''}`, fieldOf(issue.path));
  }
  const plans = parsed.data.plans ?? [];
  const seen = new Set<string>();
  plans.forEach((p, i) => {
    if (isPlanName(p.name)) {
      throw new PlansFileError(file, `"${p.name}" is a built-in plan: give the custom plan its own name (and base: ${p.name})`, `plans[${i}].name`);
    }
    if (seen.has(p.name)) throw new PlansFileError(file, `"${p.name}" is defined twice`, `plans[${i}].name`);
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
