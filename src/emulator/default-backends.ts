import { findProduct } from '../catalog/index.js';
import type { EmulatorBackends } from './backends.js';
import { HaltArchive } from './halts/index.js';
import { SyntheticMarket } from './market/index.js';

/** The real data of the emulator: the product catalog, the synthetic market and the halt archive. */
export function createDefaultBackends(seed: number): EmulatorBackends {
  return { findProduct, market: new SyntheticMarket(seed), halts: new HaltArchive(seed) };
}
