/**
 * The lake ids the checkpoints of a state location were saved for, with the pipelines of each:
 * what `repair` takes a lost layout file's id back from, so the pipelines resume where they were.
 */
import { CheckpointStore, checkpointPipelines } from './checkpoint-store.js';
import type { StateRef } from './state-location.js';

export async function checkpointLakeIds(state: StateRef): Promise<Map<string, string[]>> {
  const byLake = new Map<string, string[]>();
  for (const pipeline of await checkpointPipelines(state)) {
    const lake = (await new CheckpointStore(state, pipeline).loadFile())?.lake;
    if (lake === undefined) continue;
    const pipelines = byLake.get(lake) ?? [];
    pipelines.push(pipeline);
    byLake.set(lake, pipelines);
  }
  return byLake;
}
