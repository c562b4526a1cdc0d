import type { EmulatorBackends } from './backends.js';

/** Placeholder until the catalog, synthetic market and halt archive are merged in. */
export function createDefaultBackends(_seed: number): EmulatorBackends {
  throw new Error('default emulator backends are not available yet: pass options.backends');
}
