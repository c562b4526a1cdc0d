/**
 * A shortfall that moved a stream's checkpoint past what the service did not deliver (a stock's
 * newest page still short, bars lost for good) is said by the run that met it, and no later run
 * asks for those bars again. A run killed or stopped after committing that checkpoint (or stopped
 * at the daily quota, whose exit 75 outranks 4) never made it its exit code, so the run record
 * keeps it, and the next run says it again and exits 4.
 */
import type { Checkpoint } from '../core/component.js';
import { readRunManifests, writeRunManifest, type CommittedShortfall } from './run-manifest.js';
import type { StateRef } from './state-location.js';

/** This run's shortfalls: those said per stream wait for that stream's checkpoint to be committed. */
export class ShortfallLedger {
  private readonly said = new Map<string, string[]>();
  private readonly kept: CommittedShortfall[] = [];
  private readonly carried: CommittedShortfall[] = [];
  private readonly saidHere = new Set<string>();

  constructor(private readonly runId: string) {}

  onSaid(stream: string, message: string): void {
    this.saidHere.add(stream);
    const list = this.said.get(stream) ?? [];
    list.push(message);
    this.said.set(stream, list);
  }

  /** The checkpoints of these streams were committed: their shortfalls now hold for good. */
  onCommitted(streams: Iterable<string>): void {
    for (const stream of streams) {
      for (const message of this.said.get(stream) ?? []) this.kept.push({ stream, message, runId: this.runId });
      this.said.delete(stream);
    }
  }

  /** Taken over from a run that did not finish. */
  carry(list: readonly CommittedShortfall[]): void {
    this.kept.push(...list);
    this.carried.push(...list);
  }

  /** The shortfalls taken over that this run has not said in its own words (it asked that stream again and met it too). */
  carriedToSay(): readonly CommittedShortfall[] {
    return this.carried.filter((s) => !this.saidHere.has(s.stream));
  }

  committed(): readonly CommittedShortfall[] {
    return [...this.kept];
  }
}

/**
 * The committed shortfalls of this pipeline's runs that did not finish (any status but
 * `succeeded`, which said them in its own exit code, unless it stopped at the daily quota: exit 75
 * outranks 4) and no run took over yet, of streams whose
 * checkpoint is still there (a state reset or full refresh fetches them again). `handOver` then
 * marks those runs as taken over by `runId`: call it once this run's record holds the list.
 */
export async function unfinishedShortfalls(
  state: StateRef,
  pipeline: string,
  runId: string,
  held: ReadonlyMap<string, Checkpoint>,
): Promise<{ list: CommittedShortfall[]; handOver: () => Promise<void> }> {
  const runs = (await readRunManifests(state)).filter(
    (m) => m.pipeline === pipeline && m.runId !== runId && (m.status !== 'succeeded' || m.stoppedAtQuota === true) && m.status !== 'running' && m.shortfallsCarriedBy === undefined && (m.shortfallsCommitted?.length ?? 0) > 0,
  );
  const seen = new Set<string>();
  const list: CommittedShortfall[] = [];
  for (const m of runs.sort((a, b) => a.startedAt.localeCompare(b.startedAt))) {
    for (const s of m.shortfallsCommitted ?? []) {
      const key = `${s.stream}\u0000${s.message}`;
      if (!held.has(s.stream) || seen.has(key)) continue;
      seen.add(key);
      list.push(s);
    }
  }
  const handOver = async (): Promise<void> => {
    for (const m of runs) await writeRunManifest(state, { ...m, shortfallsCarriedBy: runId });
  };
  return { list, handOver };
}
