/**
 * A trade table whose log was written over days, for the log-cleanup tests of both backends:
 * versions 0..29 (checkpoints at 10 and 20, written by the commits themselves), version v written
 * 45 - v days before NOW and each checkpoint a minute after its version. NOW lies before any real
 * date these tests run on, so whatever a test writes itself is younger than every retention, and
 * no test depends on today's date. The versions are built at a clock long before NOW, so the
 * cleanup their checkpoints run deletes nothing until the entries are aged.
 */
import { addAction, checkpointKey, commitKey, commitDeltaVersion, datasetMetaData, type MetaDataAction } from '../../../src/lake/delta/index.js';
import type { LakeStorage } from '../../../src/lake/storage/lake-storage.js';
import { localStorage } from '../../../src/lake/storage/local-storage.js';
import type { TestLakes } from '../test-lakes.js';
import { T0, TABLE_ID } from './delta-fixture-table.js';

export const DAY = 86_400_000;
export const NOW = Date.parse('2026-01-01T00:00:00Z');
const LONG_BEFORE = Date.parse('2000-01-01T00:00:00Z');
export const AGED_VERSIONS = 30;

/** When version v was written. */
export const writtenAt = (v: number) => NOW - (45 - v) * DAY;

export function tradeMetaData(configuration: Record<string, string>): MetaDataAction {
  return { ...datasetMetaData('trade', { id: TABLE_ID, createdTime: T0 }), configuration };
}

export const addOf = (v: number) => addAction('trade', { relativeKey: `date=2026-11-21/part-${v}.parquet`, size: 100, modificationTime: T0 });

export function storageOf(lakes: TestLakes, out: string): LakeStorage {
  return lakes.storage(out) ?? localStorage(out);
}

export async function agedTradeTable(lakes: TestLakes, configuration: Record<string, string> = {}): Promise<{ out: string; storage: LakeStorage; metaData: MetaDataAction }> {
  const out = await lakes.fresh();
  const storage = storageOf(lakes, out);
  const metaData = tradeMetaData(configuration);
  for (let v = 0; v < AGED_VERSIONS; v++) {
    await commitDeltaVersion(storage, 'trade', { add: [addOf(v)] }, { expectedVersion: v, operation: 'WRITE', metaData, now: () => LONG_BEFORE });
  }
  for (let v = 0; v < AGED_VERSIONS; v++) await lakes.setModifiedAt(out, commitKey('trade', v), writtenAt(v));
  for (const v of [10, 20]) await lakes.setModifiedAt(out, checkpointKey('trade', v), writtenAt(v) + 60_000);
  return { out, storage, metaData };
}
