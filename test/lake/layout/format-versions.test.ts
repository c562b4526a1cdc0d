/**
 * Checkpoints, manifests and commit journals are read through their version steps: files written
 * by 0.1.0 come up in the current shape, a future version is refused, never half-read.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FormatVersionError } from '../../../src/core/errors.js';
import { upgradeToNewest } from '../../../src/core/version-steps.js';
import { pendingJournals } from '../../../src/lake/commit/commit-journal.js';
import { localStorage } from '../../../src/lake/storage/local-storage.js';
import { journalVersions } from '../../../src/lake/commit/journal-versions.js';
import { readManifest } from '../../../src/lake/commit/manifest.js';
import { MANIFEST_VERSIONS } from '../../../src/lake/commit/manifest-versions.js';
import { CheckpointStore } from '../../../src/runtime/checkpoint-store.js';
import { tempDir } from '../../sinks/helpers.js';
import { FIXTURE } from './fixture-lake.js';

const json = async (path: string) => JSON.parse(await readFile(join(FIXTURE, path), 'utf8')) as Record<string, unknown>;
const JOURNAL_010 = '.staging/20261120T120500Z-7dibje/trade.parquet.journal.json';

describe('manifest versions', () => {
  it('a 0.1.0 manifest (v1) is read as v2 with nothing retired, every other field as written', async () => {
    const v1 = await json('kline/_manifest.json');
    expect(v1.version).toBe(1);
    const v2 = upgradeToNewest(v1, MANIFEST_VERSIONS, 'kline/_manifest.json');
    expect(v2).toEqual({ ...v1, version: 2, retired: [] });
    expect(v1.version).toBe(1); // the input is not modified
  });

  it('readManifest refuses a future version with the file, its version and the newest known', async () => {
    const out = await tempDir();
    await mkdir(join(out, '_quotelake/manifests'), { recursive: true });
    const path = join(out, '_quotelake/manifests/kline.parquet.json');
    await writeFile(path, JSON.stringify({ ...(await json('kline/_manifest.json')), version: 7 }));
    const error = await readManifest(out, 'kline', 'parquet').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FormatVersionError);
    expect((error as Error).message).toBe(
      `${path}: manifest version 7 is newer than this quotelake reads (newest 2); it was written by a newer quotelake: upgrade quotelake to use this output`,
    );
    await writeFile(path, JSON.stringify({ dataset: 'kline' }));
    await expect(readManifest(out, 'kline', 'parquet')).rejects.toThrow(`${path}: manifest has no valid version (found undefined; this quotelake reads versions 1 to 2)`);
  });
});

describe('commit journal versions', () => {
  it('the pending 0.1.0 journal (v1) is read as v2: remove becomes retire, its manifest v2', async () => {
    const v1 = await json(JOURNAL_010);
    const v2 = upgradeToNewest(v1, journalVersions('j'), 'j');
    const { remove, manifest, ...same } = v1 as { remove: string[]; manifest: Record<string, unknown> };
    expect(remove).toEqual(['trade/date=2026-11-19/part-20261120T120000Z-rky2yr-00002.parquet']);
    expect(v2).toEqual({ ...same, version: 2, retire: remove, manifest: { ...manifest, version: 2, retired: [] } });
  });

  it('pendingJournals upgrades a v1 journal and refuses a future one', async () => {
    const out = await tempDir();
    const dir = join(out, '_quotelake/staging/r1');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'trade.parquet.journal.json'), JSON.stringify(await json(JOURNAL_010)));
    const [journal] = await pendingJournals(localStorage(out), { dataset: 'trade', format: 'parquet' });
    expect(journal).toMatchObject({ version: 2, retire: ['trade/date=2026-11-19/part-20261120T120000Z-rky2yr-00002.parquet'], manifest: { version: 2, retired: [] } });
    expect(journal).not.toHaveProperty('remove');
    await writeFile(join(dir, 'trade.parquet.journal.json'), JSON.stringify({ ...(await json(JOURNAL_010)), version: 3 }));
    await expect(pendingJournals(localStorage(out), { dataset: 'trade', format: 'parquet' })).rejects.toThrow(/commit journal version 3 is newer than this quotelake reads \(newest 2\)/);
  });
});

describe('checkpoint versions', () => {
  it('0.1.0 checkpoints load unchanged; one without a version is taken as version 1', async () => {
    const state = await tempDir();
    await mkdir(join(state, 'checkpoints'), { recursive: true });
    const v1 = await json('.state/checkpoints/fx-kline.json');
    await writeFile(join(state, 'checkpoints/fx-kline.json'), JSON.stringify(v1));
    const loaded = await new CheckpointStore(state, 'fx-kline').load();
    expect(loaded.get('kline/BTCUSDT/1m')).toEqual({ stream: 'kline/BTCUSDT/1m', position: { watermark: 1795175940, low: 1795089660 } });
    const { version: _v, ...unversioned } = v1;
    await writeFile(join(state, 'checkpoints/fx-kline.json'), JSON.stringify(unversioned));
    expect((await new CheckpointStore(state, 'fx-kline').load()).size).toBe(4);
  });

  it('a checkpoint file of a future version is refused, never half-read', async () => {
    const state = await tempDir();
    await mkdir(join(state, 'checkpoints'), { recursive: true });
    const path = join(state, 'checkpoints/fx-kline.json');
    await writeFile(path, JSON.stringify({ ...(await json('.state/checkpoints/fx-kline.json')), version: 2 }));
    const error = await new CheckpointStore(state, 'fx-kline').load().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'QL_FORMAT_VERSION', file: path, version: 2, newest: 1 });
  });
});
