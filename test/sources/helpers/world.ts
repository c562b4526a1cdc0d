/**
 * The real emulator (catalog, synthetic market, halt archive) in-process on 127.0.0.1:0 and a
 * client on the same ManualClock, plus helpers to drain a source the way the runtime does.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createClient, manualSleep, seededRandom, type PlanName, type ServiceClient } from '../../../src/api/index.js';
import { findProduct } from '../../../src/catalog/index.js';
import { ManualClock } from '../../../src/core/clock.js';
import type { Batch, Checkpoint, Logger, RunContext, Source } from '../../../src/core/component.js';
import type { ComponentEnv } from '../../../src/core/definition.js';
import type { EmulatorBackends } from '../../../src/emulator/backends.js';
import { HaltArchive } from '../../../src/emulator/halts/index.js';
import { SyntheticMarket } from '../../../src/emulator/market/index.js';
import { startEmulator, type EmulatorHandle } from '../../../src/emulator/server.js';
import { createRunEvents, type RunEventsRecorder } from '../../../src/runtime/run-events.js';

export const SEED = 7;

export function realBackends(seed = SEED): EmulatorBackends & { market: SyntheticMarket; halts: HaltArchive } {
  return { findProduct, market: new SyntheticMarket(seed), halts: new HaltArchive(seed) };
}

export interface World {
  readonly emu: EmulatorHandle;
  readonly clock: ManualClock;
  readonly market: SyntheticMarket;
  readonly halts: HaltArchive;
  readonly dir: string;
  client(plan?: PlanName): ServiceClient;
  env(client: ServiceClient): ComponentEnv;
  close(): Promise<void>;
}

/** A client of the plan's demo token that sleeps on `clock` and retries with a seeded jitter: runs repeat exactly. */
export function frozenClient(baseUrl: string, plan: PlanName, stateDir: string, clock: ManualClock): ServiceClient {
  return createClient({ baseUrl, token: `demo-${plan}`, plan, stateDir, clock, sleep: manualSleep(clock), retry: { random: seededRandom(3) } });
}

/** `behaviours`: what the emulator may show (e.g. `short-pages=0.5`); none by default. */
export async function startWorld(start: string, seed = SEED, behaviours?: string): Promise<World> {
  const clock = new ManualClock(start);
  const backends = realBackends(seed);
  const emu = await startEmulator({ clock, seed, backends, log: () => {}, ...(behaviours !== undefined ? { behaviours } : {}) });
  const dir = await mkdtemp(join(tmpdir(), 'ql-sources-'));
  const clients: ServiceClient[] = [];
  return {
    emu,
    clock,
    market: backends.market,
    halts: backends.halts,
    dir,
    client(plan = 'professional') {
      const c = frozenClient(emu.url, plan, join(dir, 'state'), clock);
      clients.push(c);
      return c;
    },
    env(client) {
      return { outputDir: join(dir, 'out'), stateDir: join(dir, 'state'), stdout: new PassThrough(), client };
    },
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await emu.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };

export function runContext(clock: ManualClock, events: RunEventsRecorder = createRunEvents(), signal = new AbortController().signal): RunContext {
  return { runId: 'test-run', signal, logger: quiet, events, clock };
}

export interface Drained<T> {
  readonly batches: Batch<T>[];
  readonly records: T[];
  /** The checkpoints after the run, merged over `from` (as the runtime saves them). */
  readonly checkpoints: Map<string, Checkpoint>;
  readonly events: RunEventsRecorder;
}

/** Reads a source to the end (or `maxBatches`), committing every checkpoint as it comes. */
export async function drain<T>(
  source: Source<T>,
  clock: ManualClock,
  from: ReadonlyMap<string, Checkpoint> = new Map(),
  options: { maxBatches?: number; signal?: AbortSignal; events?: RunEventsRecorder } = {},
): Promise<Drained<T>> {
  const events = options.events ?? createRunEvents();
  const ctx = runContext(clock, events, options.signal);
  const batches: Batch<T>[] = [];
  const checkpoints = new Map(from);
  for await (const batch of source.read(ctx, from)) {
    batches.push(batch);
    if (batch.checkpoint) checkpoints.set(batch.checkpoint.stream, batch.checkpoint);
    if (options.maxBatches !== undefined && batches.length >= options.maxBatches) break;
  }
  return { batches, records: batches.flatMap((b) => [...b.records]), checkpoints, events };
}
