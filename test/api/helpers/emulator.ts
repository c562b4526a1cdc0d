/**
 * The real emulator in-process on 127.0.0.1:0, driven by the same ManualClock as the client.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../../src/core/clock.js';
import { startEmulator, type EmulatorHandle, type EmulatorOptions } from '../../../src/emulator/server.js';
import { createClient, manualSleep, seededRandom, type ClientOptions, type RequestInfo, type ServiceClient } from '../../../src/api/index.js';
import type { PlanName } from '../../../src/api/plans.js';

export const START = '2026-03-02T15:00:00.000Z';

export interface World {
  emu: EmulatorHandle;
  clock: ManualClock;
  stateDir: string;
  /** A client on the shared clock; `infos` collects its onRequest reports. */
  client(plan: PlanName | (string & {}), options?: Partial<ClientOptions>): { client: ServiceClient; infos: RequestInfo[] };
  close(): Promise<void>;
}

export async function startWorld(options: Partial<EmulatorOptions> & { start?: string } = {}): Promise<World> {
  const clock = new ManualClock(options.start ?? START);
  // The default backends: the real catalog, synthetic market and halt archive.
  const emu = await startEmulator({ log: () => {}, ...options, clock });
  const stateDir = await mkdtemp(join(tmpdir(), 'ql-api-it-'));
  const clients: ServiceClient[] = [];
  return {
    emu,
    clock,
    stateDir,
    client(plan, extra = {}) {
      const infos: RequestInfo[] = [];
      const client = createClient({
        baseUrl: emu.url,
        token: `demo-${plan}`,
        plan,
        stateDir,
        clock,
        sleep: manualSleep(clock),
        retry: { random: seededRandom(7) },
        onRequest: (info) => infos.push(info),
        ...extra,
      });
      clients.push(client);
      return { client, infos };
    },
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await emu.close();
      await rm(stateDir, { recursive: true, force: true });
    },
  };
}

