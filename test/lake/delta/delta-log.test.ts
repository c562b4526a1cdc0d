/**
 * The Delta log of a small kline table: golden commit files (clock and table id injected), the
 * snapshot replayed by a reader written from the protocol, and quotelake's own reader agreeing.
 */
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_VERSION } from '../../../src/lake/package-version.js';
import { readDeltaSnapshot, watermarkAppId, watermarksOf } from '../../../src/lake/delta/index.js';
import { buildFixtureTable, DAILY, DAY1, T0 } from './delta-fixture-table.js';
import { replayJsonLog } from './protocol-replay.js';

const GOLDEN = join(import.meta.dirname, '../../fixtures/delta/kline/_delta_log');
const MIN = 60_000;

/** The engine version is the one moving part of a commit once clock and id are fixed. */
const normalise = (text: string) => text.replaceAll(`quotelake/${PACKAGE_VERSION}`, 'quotelake/<version>');

describe('Delta log of a kline table', () => {
  it('writes versions 0-3 byte for byte as the golden files', async () => {
    const { root } = await buildFixtureTable();
    for (let v = 0; v <= 3; v++) {
      const name = `${String(v).padStart(20, '0')}.json`;
      const written = normalise(await readFile(join(root, 'kline/_delta_log', name), 'utf8'));
      if (process.env.UPDATE_GOLDEN === '1') {
        await mkdir(GOLDEN, { recursive: true });
        await writeFile(join(GOLDEN, name), written);
      }
      expect(written).toBe(await readFile(join(GOLDEN, name), 'utf8'));
    }
  });

  it('replays, by a reader written from the protocol, to exactly the files that hold the data', async () => {
    const { root } = await buildFixtureTable();
    const replayed = await replayJsonLog(join(root, 'kline'));
    expect(replayed.version).toBe(3);
    expect(replayed.partitionColumns).toEqual(['interval', 'year', 'date']);
    expect([...replayed.live.keys()].sort()).toEqual([
      `${DAILY}/part-r1-00003.parquet`,
      `${DAY1}/part-c3-00001.parquet`,
      `${DAY1}/part-r2-00001.parquet`,
    ]);
    expect(replayed.live.get(`${DAILY}/part-r1-00003.parquet`)).toEqual({ interval: '1d', year: '2026', date: null });
    expect(replayed.live.get(`${DAY1}/part-c3-00001.parquet`)).toEqual({ interval: '1m', year: '2026', date: '2026-11-21' });
    // Every live path is a file on disk.
    for (const path of replayed.live.keys()) await expect(readFile(join(root, 'kline', path))).resolves.toBeDefined();
    expect(replayed.txns).toEqual({ [watermarkAppId('demo', '700.HK')]: T0 + 9 * MIN, [watermarkAppId('demo', '9988.HK')]: T0 + 4 * MIN });
  });

  it("quotelake's reader gives the same snapshot, tombstones and watermarks", async () => {
    const { storage, adds } = await buildFixtureTable();
    const snapshot = (await readDeltaSnapshot(storage, 'kline'))!;
    expect(snapshot.version).toBe(3);
    expect(snapshot.protocol).toEqual({ minReaderVersion: 1, minWriterVersion: 2 });
    expect(new Map([...snapshot.files].sort())).toEqual(new Map([...adds].sort()));
    expect([...snapshot.tombstones.keys()].sort()).toEqual([`${DAY1}/part-r1-00001.parquet`, `${DAY1}/part-r1-00002.parquet`]);
    expect(snapshot.tombstones.get(`${DAY1}/part-r1-00001.parquet`)).toMatchObject({ dataChange: false, deletionTimestamp: T0 + 10 * MIN, extendedFileMetadata: true });
    expect(watermarksOf(snapshot.txns, 'demo')).toEqual(new Map([['700.HK', T0 + 9 * MIN], ['9988.HK', T0 + 4 * MIN]]));
    expect(watermarksOf(snapshot.txns, 'other')).toEqual(new Map());
    // Time travel: version 1 still has the two files compaction later replaced.
    const v1 = (await readDeltaSnapshot(storage, 'kline', 1))!;
    expect(v1.files.size).toBe(4);
    expect(await readDeltaSnapshot(storage, 'trade')).toBeUndefined();
  });
});
