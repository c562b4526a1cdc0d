/**
 * The versions of a checkpoint file (read through core/version-steps.ts). 1: quotelake 0.1.0
 * (it already wrote `version: 1`; a file without one is taken as 1, the only shape there was).
 * The next change of shape adds its step here.
 */
import type { VersionChain } from '../core/version-steps.js';

export const CHECKPOINT_VERSIONS: VersionChain = {
  what: 'checkpoint file',
  newest: 1,
  steps: {},
  unversioned: 1,
};
