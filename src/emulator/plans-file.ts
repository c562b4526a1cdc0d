/**
 * The emulator's reading of a plans file: the custom plans (`plans:`, parsed by the one shared
 * parser in src/core and mapped onto the emulator's own plan table) and the extra tokens
 * (`tokens:`, the emulator's part alone), each on a built-in or a custom plan.
 */
import * as z from 'zod';
import { PlansFileError } from '../core/errors.js';
import { demoToken } from '../core/plan-names.js';
import { knownPlanNames, parsePlansDocument, readPlansFile, type CustomPlan, type PlansDocument } from '../core/plans-file.js';
import { BehaviourSpecError, parseBehaviourSpec, type BehaviourSpec } from './behaviours/behaviour-spec.js';
import { parseFaultSpec, FaultSpecError, type FaultSpec } from './faults/fault-spec.js';
import { customPlanLimits, DEMO_TOKENS, PLANS, type PlanLimits } from './plans.js';

export { PlansFileError };

/** An extra token: on a built-in or custom plan, optionally with its own fault and behaviour specs. */
export interface TokenGrant {
  token: string;
  plan: string;
  faults?: string | undefined;
  behaviours?: string | undefined;
}

/** What a plans file gives the emulator. */
export interface EmulatorPlans {
  readonly customPlans: readonly CustomPlan[];
  readonly tokens: readonly TokenGrant[];
}

export interface TokenEntry {
  plan: PlanLimits;
  faults: FaultSpec | undefined;
  /** The token's own behaviours (replacing the emulator's); undefined = the emulator's. */
  behaviours?: BehaviourSpec | undefined;
}

/** A token's error never quotes its value: only what kind of value it was. */
const kindOf = (input: unknown): string =>
  input === null ? 'null' : Array.isArray(input) ? 'a list' : typeof input === 'object' ? 'a mapping' : typeof input === 'string' ? 'text' : typeof input === 'number' ? 'a number' : typeof input === 'boolean' ? 'true/false' : 'nothing';

/** In the file's own words: `is missing`, or what the field must be and what kind of value it got. */
const textField = (rule: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? `is missing (${rule})` : `${rule}, got ${kindOf(issue.input)}`),
});

const GRANT_KEYS = ['token', 'plan', 'faults', 'behaviours'] as const;

const grantSchema = z.strictObject(
  {
    // YAML reads 0012345 or 1e5 as a number: the quotes are the fix, and the message says so.
    token: z
      .string(textField('must be text; quote a token YAML would read as a number, as in token: "0012345"'))
      .min(1, { error: 'must not be empty' })
      .max(512, { error: 'must be at most 512 characters' }),
    plan: z.string(textField('must be the name of a built-in or custom plan')).min(1, { error: 'must not be empty' }),
    faults: z.string(textField('must be a fault spec such as "5xx=0.1"')).optional(),
    behaviours: z.string(textField('must be a behaviour spec such as "all,omit-codes=0"')).optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown key ${(issue.keys ?? []).map((k) => JSON.stringify(k)).join(', ')} (a token takes ${GRANT_KEYS.join(', ')})`
        : `must be a mapping {token, plan}, got ${kindOf(issue.input)}`,
  },
);
const tokensSchema = z.array(grantSchema, { error: (issue) => `must be a list of {token, plan} entries, got ${kindOf(issue.input)}` });

/** `tokens[0].plan`, as the plans section names its fields (`plans[0].perSecond`). */
const tokenField = (path: readonly PropertyKey[]): string =>
  ['tokens', ...path].map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i > 0 ? '.' : ''}${String(p)}`)).join('');

/**
 * Read a plans file (`.json`, or YAML for anything else): `{ plans?: [custom plan...], tokens?:
 * [{ token, plan, faults?, behaviours? }] }`. Errors are PlansFileError naming the file and field.
 */
export async function loadPlansFile(file: string): Promise<EmulatorPlans> {
  return emulatorPlans(await readPlansFile(file));
}

/** The emulator's part of an already parsed document (also for a document given in code). */
export function emulatorPlans(doc: PlansDocument): EmulatorPlans {
  const { file } = doc;
  const parsed = tokensSchema.safeParse(doc.tokens ?? []);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new PlansFileError(file, issue?.message ?? 'invalid', tokenField(issue?.path ?? []));
  }
  const known = knownPlanNames(doc);
  const seen = new Set<string>();
  parsed.data.forEach((g, i) => {
    // Two grants of one token would leave its plan to the order of the list, as a plan defined twice would.
    if (seen.has(g.token)) throw new PlansFileError(file, 'a token given twice (each token takes one plan)', tokenField([i, 'token']));
    seen.add(g.token);
    if (!known.includes(g.plan)) {
      throw new PlansFileError(file, `"${g.plan}" is not a plan (known plans: ${known.join(', ')})`, tokenField([i, 'plan']));
    }
    // I3: a demo token is on the plan its name says, on both sides (a client paces demo-free as Free).
    const own = known.find((name) => demoToken(name) === g.token);
    if (own !== undefined && own !== g.plan) {
      throw new PlansFileError(file, `${g.token} is always on plan ${own}, not ${g.plan}: give this entry a token of its own`, tokenField([i, 'plan']));
    }
    try {
      if (g.faults !== undefined) parseFaultSpec(g.faults);
    } catch (e) {
      if (e instanceof FaultSpecError) throw new PlansFileError(file, e.message, tokenField([i, 'faults']));
      throw e;
    }
    try {
      if (g.behaviours !== undefined) parseBehaviourSpec(g.behaviours);
    } catch (e) {
      if (e instanceof BehaviourSpecError) throw new PlansFileError(file, e.message, tokenField([i, 'behaviours']));
      throw e;
    }
  });
  return { customPlans: doc.plans, tokens: parsed.data };
}

/** Custom plans given in code, checked by the same parser as a file's (`where` names them in errors). */
export function checkCustomPlans(plans: readonly CustomPlan[], where = 'customPlans'): readonly CustomPlan[] {
  return parsePlansDocument(where, { plans }).plans;
}

/**
 * Demo tokens (I3's seven, plus `demo-<name>` for each custom plan) and the grants; a file's grant
 * of a demo token keeps its plan (emulatorPlans) and may give it its own faults or behaviours.
 */
export function buildTokenTable(grants: readonly TokenGrant[], customPlans: readonly CustomPlan[] = []): Map<string, TokenEntry> {
  const plans = new Map<string, PlanLimits>(Object.values(PLANS).map((p) => [p.name, p]));
  for (const c of customPlans) plans.set(c.name, customPlanLimits(c));
  const table = new Map<string, TokenEntry>();
  for (const [token, plan] of Object.entries(DEMO_TOKENS)) table.set(token, { plan: PLANS[plan], faults: undefined });
  for (const c of customPlans) table.set(demoToken(c.name), { plan: plans.get(c.name)!, faults: undefined });
  for (const g of grants) {
    const plan = plans.get(g.plan);
    if (plan === undefined) throw new RangeError(`token grant on unknown plan "${g.plan}" (known plans: ${[...plans.keys()].join(', ')})`);
    table.set(g.token, {
      plan,
      faults: g.faults === undefined ? undefined : parseFaultSpec(g.faults),
      behaviours: g.behaviours === undefined ? undefined : parseBehaviourSpec(g.behaviours),
    });
  }
  return table;
}
