import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { BehaviourSpecError, parseBehaviourSpec, type BehaviourSpec } from './behaviours/behaviour-spec.js';
import { parseFaultSpec, FaultSpecError, type FaultSpec } from './faults/fault-spec.js';
import { DEMO_TOKENS, PLAN_NAMES, PLANS, type PlanLimits, type PlanName } from './plans.js';

/** An extra token: on one of the seven plans, optionally with its own fault and behaviour specs. */
export interface TokenGrant {
  token: string;
  plan: PlanName;
  faults?: string | undefined;
  behaviours?: string | undefined;
}

export interface TokenEntry {
  plan: PlanLimits;
  faults: FaultSpec | undefined;
  /** The token's own behaviours (replacing the emulator's); undefined = the emulator's. */
  behaviours?: BehaviourSpec | undefined;
}

const grantSchema = z.strictObject({
  token: z.string().min(1).max(512),
  plan: z.enum(PLAN_NAMES),
  faults: z.string().optional(),
  behaviours: z.string().optional(),
});
const fileSchema = z.strictObject({ tokens: z.array(grantSchema) });

export class PlansFileError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`${file}: ${reason}`);
    this.name = 'PlansFileError';
  }
}

/** Read a plans file (`.json`, or YAML for anything else): `{ tokens: [{ token, plan, faults?, behaviours? }] }`. */
export async function loadPlansFile(file: string): Promise<TokenGrant[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new PlansFileError(file, `cannot read: ${(e as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = file.toLowerCase().endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    throw new PlansFileError(file, `not valid ${file.toLowerCase().endsWith('.json') ? 'JSON' : 'YAML'}: ${(e as Error).message}`);
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : '(root)';
    throw new PlansFileError(file, `${where}: ${issue?.message ?? 'invalid'}`);
  }
  parsed.data.tokens.forEach((g, i) => {
    try {
      if (g.faults !== undefined) parseFaultSpec(g.faults);
    } catch (e) {
      if (e instanceof FaultSpecError) throw new PlansFileError(file, `tokens.${i}.faults: ${e.message}`);
      throw e;
    }
    try {
      if (g.behaviours !== undefined) parseBehaviourSpec(g.behaviours);
    } catch (e) {
      if (e instanceof BehaviourSpecError) throw new PlansFileError(file, `tokens.${i}.behaviours: ${e.message}`);
      throw e;
    }
  });
  return parsed.data.tokens;
}

/** Demo tokens plus the grants; a grant may re-plan a demo token. */
export function buildTokenTable(grants: readonly TokenGrant[]): Map<string, TokenEntry> {
  const table = new Map<string, TokenEntry>();
  for (const [token, plan] of Object.entries(DEMO_TOKENS)) table.set(token, { plan: PLANS[plan], faults: undefined });
  for (const g of grants) {
    table.set(g.token, {
      plan: PLANS[g.plan],
      faults: g.faults === undefined ? undefined : parseFaultSpec(g.faults),
      behaviours: g.behaviours === undefined ? undefined : parseBehaviourSpec(g.behaviours),
    });
  }
  return table;
}
