/**
 * The service's plans by name (decisions I3, I4): the one list the client, the emulator, the
 * pipeline schema and the CLI all derive from. Only the names are shared: each side keeps its own
 * table of limits, so a wrong number on one side still shows up at the wire.
 */
export const PLAN_NAMES = ['free', 'basic', 'premium', 'professional', 'all-hk', 'all-cn', 'all-us'] as const;

export type PlanName = (typeof PLAN_NAMES)[number];

export function isPlanName(value: string): value is PlanName {
  return (PLAN_NAMES as readonly string[]).includes(value);
}

/** The demo token of a plan (I3): `demo-<plan>`, e.g. `demo-all-hk`; a custom plan's follows the same pattern. */
export function demoToken(plan: string): string {
  return `demo-${plan}`;
}
