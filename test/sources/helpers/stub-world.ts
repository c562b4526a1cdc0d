/**
 * A fake service (the stub server) and a real client on a frozen clock, for runs through the real
 * runtime against answers our emulator never gives; and the lines a run diverted to `_rejected/`.
 */
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PlanName, ServiceClient } from '../../../src/api/index.js';
import { ManualClock } from '../../../src/core/clock.js';
import { startStub, type StubHandler } from '../../api/helpers/stub-server.js';
import { frozenClient } from './world.js';

export interface StubWorld {
  readonly stub: Awaited<ReturnType<typeof startStub>>;
  readonly client: ServiceClient;
  readonly clock: ManualClock;
  readonly outputDir: string;
  close(): Promise<void>;
}

export async function startStubWorld(now: string, handler: StubHandler, plan: PlanName = 'professional'): Promise<StubWorld> {
  const stub = await startStub(handler);
  const dir = await mkdtemp(join(tmpdir(), 'ql-stub-world-'));
  const clock = new ManualClock(now);
  const client = frozenClient(stub.url, plan, join(dir, 'state'), clock);
  return {
    stub,
    client,
    clock,
    outputDir: join(dir, 'out'),
    async close() {
      await client.close();
      await stub.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface RejectedLine {
  stream: string;
  code: string;
  field: string | null;
  value: string | null;
  reason: string;
  record: unknown;
}

export async function rejectedLines(outputDir: string, dataset: string): Promise<RejectedLine[]> {
  const root = join(outputDir, '_rejected', dataset);
  const out: RejectedLine[] = [];
  for (const day of await readdir(root).catch(() => [])) {
    for (const file of await readdir(join(root, day))) {
      const text = await readFile(join(root, day, file), 'utf8');
      out.push(...text.trim().split('\n').map((l) => JSON.parse(l) as RejectedLine));
    }
  }
  return out;
}
