/**
 * A writer SIGKILLed at every kind of moment of a commit that checkpoints and then cleans the log:
 * before its changes to the store, and while they are under way (a checkpoint half-written, a
 * delete in flight). After every kill a reader written from the protocol, from the listing alone,
 * finds a checkpoint and every JSON version after it for each version within the retention and for
 * the newest, and quotelake reads the newest; a writer run afterwards goes on, and its next
 * checkpoint finishes the cleanup. On a local folder and on S3 (s3rver).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readDeltaSnapshot } from '../../../src/lake/delta/index.js';
import { runCrashChild } from '../../helpers/crash-child.js';
import { BACKENDS, useLakesOf, type Backend, type TestLakes } from '../test-lakes.js';
import { agedTradeTable, AGED_VERSIONS, DAY, NOW, storageOf, writtenAt } from './aged-delta-table.js';
import { logVersions, readVersion } from './protocol-time-travel.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/delta-commit-killed.mjs', import.meta.url));

let lakes: TestLakes;
const onBackend = (backend: Backend): void => useLakesOf(backend, (mine) => (lakes = mine));

const files = (to: number) => Array.from({ length: to + 1 }, (_, v) => `date=2026-11-21/part-${v}.parquet`).sort();

function commitUntil(out: string, until: number, kill?: { killAt: number; mode: 'before' | 'during' }) {
  const s3Endpoint = lakes.s3Endpoint();
  return runCrashChild([FIXTURE, out, JSON.stringify({ until, now: NOW, ...kill, ...(s3Endpoint ? { s3Endpoint } : {}) })]);
}

/**
 * The table as the listing and quotelake both see it, once they agree on its newest version: a PUT
 * the killed writer had sent whole may still land on the S3 server after the kill, between two reads.
 */
async function settledTable(out: string) {
  for (let attempt = 0; ; attempt++) {
    const newestOf = async () => {
      const table = join(await lakes.localCopy(out), 'trade');
      return { table, newest: (await logVersions(table)).commits.at(-1)! };
    };
    const before = await newestOf();
    const snapshot = (await readDeltaSnapshot(storageOf(lakes, out), 'trade'))!;
    const after = await newestOf();
    if (before.newest === after.newest || attempt === 10) return { ...after, snapshot };
  }
}

/** What every reader must find whatever the moment of the kill. */
async function expectWhole(out: string): Promise<number> {
  const { table, newest, snapshot } = await settledTable(out);
  expect([AGED_VERSIONS - 1, AGED_VERSIONS]).toContain(newest);
  // Every version written within the 30 days (and the newest).
  const first = Array.from({ length: newest + 1 }, (_, v) => v).find((v) => writtenAt(v) > NOW - 30 * DAY)!;
  for (let v = first; v <= newest; v++) expect((await readVersion(table, v)).live, `version ${v}`).toEqual(files(v));
  expect([...snapshot.files.keys()].sort()).toEqual(files(newest));
  return newest;
}

describe.each(BACKENDS)('a writer killed while it checkpoints and cleans the log (%s)', (backend) => {
  onBackend(backend);

  it('at each kind of step, before it and during it, leaves a table every reader reads; the next checkpoint finishes the cleanup', async () => {
    // How many changes the commit of version 30 makes: the commit, the checkpoint, _last_checkpoint, 10 deletes.
    const whole = await agedTradeTable(lakes);
    const done = await commitUntil(whole.out, AGED_VERSIONS);
    expect(done.code, done.stderr).toBe(0);
    const { changes } = JSON.parse(done.stdout.split('\n').at(-2)!) as { changes: number };
    expect(changes).toBe(13);
    // Each of the first four changes (commit, checkpoint, _last_checkpoint, first delete) before and
    // during it; the deletes after the first are alike: a middle one and the last, before them.
    const moments = [...[1, 2, 3, 4, 8, changes].map((killAt) => ({ killAt, mode: 'before' as const })), ...[1, 2, 3, 4].map((killAt) => ({ killAt, mode: 'during' as const }))];
    for (const { killAt, mode } of moments) {
      const { out } = await agedTradeTable(lakes);
      const killed = await commitUntil(out, AGED_VERSIONS, { killAt, mode });
      expect(killed.killed, `${mode} change ${killAt}: ${killed.stderr}`).toBe(true);
      await expectWhole(out);
      // The next writer goes on to version 40, whose checkpoint cleans what the killed one left.
      const next = await commitUntil(out, 40);
      expect(next.code, next.stderr).toBe(0);
      const table = join(await lakes.localCopy(out), 'trade');
      const log = await logVersions(table);
      expect(log.commits, `${mode} change ${killAt}`).toEqual(Array.from({ length: 31 }, (_, i) => 10 + i));
      // Checkpoint 30 is there unless the kill came before it was whole (no writer makes it again).
      expect(log.checkpoints.filter((v) => v !== 30)).toEqual([10, 20, 40]);
      expect((await readVersion(table, 40)).live).toEqual(files(40));
    }
  }, 600_000);
});
