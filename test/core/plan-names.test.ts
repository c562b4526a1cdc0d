import { describe, expect, it } from 'vitest';
import * as api from '../../src/api/index.js';
import { demoToken, isPlanName, PLAN_NAMES } from '../../src/core/plan-names.js';
import * as emulator from '../../src/emulator/index.js';

describe('the plan names (decisions I3, I4): one list', () => {
  it('is exactly the plans of I4, in order', () => {
    expect(PLAN_NAMES).toEqual(['free', 'basic', 'premium', 'professional', 'all-hk', 'all-cn', 'all-us']);
    expect(isPlanName('all-cn')).toBe(true);
    expect(isPlanName('gold')).toBe(false);
  });

  it('gives the demo tokens of I3, one per plan, each on the plan its name says', () => {
    expect(PLAN_NAMES.map(demoToken)).toEqual(['demo-free', 'demo-basic', 'demo-premium', 'demo-professional', 'demo-all-hk', 'demo-all-cn', 'demo-all-us']);
    expect(emulator.DEMO_TOKENS).toEqual(Object.fromEntries(PLAN_NAMES.map((p) => [demoToken(p), p])));
  });

  it('is the list the client and the emulator serve, each with its own limits for every name', () => {
    expect(api.PLAN_NAMES).toBe(PLAN_NAMES);
    expect(emulator.PLAN_NAMES).toBe(PLAN_NAMES);
    expect(Object.keys(api.PLANS)).toEqual([...PLAN_NAMES]);
    expect(Object.keys(emulator.PLANS)).toEqual([...PLAN_NAMES]);
  });
});
