/**
 * The checkpoints a run saves over, as `load` reads them. A full refresh starts from none of them,
 * so a file damaged outside quotelake does not stop it: the run starts from nothing, and its first
 * commit replaces the file atomically, under the output lock the run holds. The file is never
 * deleted up front: a refresh stopped before its first commit leaves it as it was.
 */
import type { Checkpoint } from '../core/component.js';
import { DamagedCheckpointError, type CheckpointStore } from './checkpoint-store.js';

export interface SavedCheckpoints {
  readonly committed: Map<string, Checkpoint>;
  /** Why the file could not be read, when a full refresh goes on without it. */
  readonly damaged?: DamagedCheckpointError;
}

export async function savedCheckpoints(store: CheckpointStore, fullRefresh: boolean): Promise<SavedCheckpoints> {
  try {
    return { committed: await store.load() };
  } catch (error) {
    if (fullRefresh && error instanceof DamagedCheckpointError) return { committed: new Map(), damaged: error };
    throw error;
  }
}
