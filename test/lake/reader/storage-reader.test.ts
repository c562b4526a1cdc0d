/**
 * The lake reader over a LakeStorage that is not a local folder: a lake written by the real sinks
 * into a folder, uploaded object by object to an S3 server on loopback (s3rver), read back through
 * S3Storage, must give what the folder gives: footers and series (inspect), key and time columns and
 * the gap audit (coverage), whole records. Footer reads stay ranged: the S3 requests are counted.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { coverageOfOutput } from '../../../src/coverage/index.js';
import { lakeDataset, readKeyTimes, readLakeRecords, summarizeLake, type DatasetSummary, type LakeFormat } from '../../../src/lake/reader/index.js';
import type { LakeStorage } from '../../../src/lake/storage/lake-storage.js';
import { localStorage } from '../../../src/lake/storage/local-storage.js';
import { S3Storage } from '../../../src/lake/storage/s3-storage.js';
import { useS3Server } from '../../helpers/s3-server.js';
import { tempDir } from '../../sinks/helpers.js';
import { writeLake } from './lake-fixture.js';

const server = useS3Server();
let n = 0;

/** Requests by command name (GetObjectCommand, HeadObjectCommand, ...) sent through a client. */
function counted(client: S3Client): Map<string, number> {
  const counts = new Map<string, number>();
  client.middlewareStack.add(
    (next, context) => (args) => {
      const name = context.commandName ?? '?';
      counts.set(name, (counts.get(name) ?? 0) + 1);
      return next(args);
    },
    { step: 'initialize', name: 'countCommands' },
  );
  return counts;
}

async function upload(from: LakeStorage, to: LakeStorage): Promise<number> {
  const keys = await from.list('');
  for (const key of keys) await to.put(key, (await from.read(key))!);
  return keys.length;
}

/** A summary without its per-file objects (they name their storage), per-file footers kept by key. */
function comparable(d: DatasetSummary) {
  const { perFile, ...rest } = d;
  return { ...rest, series: [...d.series], perFile: perFile.map((f) => ({ key: f.file.key, footer: f.footer, series: f.series && [...f.series], fromMetadata: f.seriesFromMetadata, problems: f.problems })) };
}

describe.each(['parquet', 'arrow'] as const)('lake reader over S3Storage (s3rver), %s files', (format: LakeFormat) => {
  async function lakes() {
    const out = await tempDir();
    await writeLake(out, format);
    const client = server().client();
    const counts = counted(client);
    const s3 = new S3Storage(client, `s3://${server().bucket}/reader/case-${++n}`);
    const objects = await upload(localStorage(out), s3);
    counts.clear();
    return { out, s3, counts, objects };
  }

  it('inspect summaries, key/time columns, coverage and records equal the local folder', async () => {
    const { out, s3, counts } = await lakes();
    const local = await summarizeLake(out);
    const remote = await summarizeLake(s3);
    expect(local.map((d) => d.dataset)).toEqual(['kline']);
    expect(local[0]!.rows).toBe(270);
    expect(local[0]!.problems).toEqual([]);
    expect(remote.map(comparable)).toEqual(local.map(comparable));
    const files = local[0]!.files;
    // One manifest list and read, then per file its size (HEAD) and one ranged GET of its last 8 KiB.
    if (format === 'parquet') expect(Object.fromEntries(counts)).toEqual({ ListObjectsV2Command: 1, GetObjectCommand: 1 + files, HeadObjectCommand: files });
    // Arrow: the same, plus a GET of the file's first bytes (its leading magic) where the file is
    // longer than that tail; these small files' footers and batch headers all lie within it.
    else {
      expect(counts.get('HeadObjectCommand')).toBe(files);
      expect(counts.get('GetObjectCommand')).toBeGreaterThanOrEqual(1 + files);
      expect(counts.get('GetObjectCommand')).toBeLessThanOrEqual(1 + 2 * files);
    }

    const localFiles = (await lakeDataset(out, 'kline', format))!.files;
    const remoteFiles = (await lakeDataset(s3, 'kline', format))!.files;
    expect(remoteFiles.map((f) => f.key)).toEqual(localFiles.map((f) => f.key));
    expect(remoteFiles[0]!.absPath).toBe(`${s3.root}/${remoteFiles[0]!.key}`);
    for (let i = 0; i < localFiles.length; i++) {
      const l = await readKeyTimes(localFiles[i]!, 'code', 'ts');
      const r = await readKeyTimes(remoteFiles[i]!, 'code', 'ts');
      expect(r.keys).toEqual(l.keys);
      expect([...r.times]).toEqual([...l.times]);
      expect(l.times.length).toBe(localFiles[i]!.listed.rows);
    }

    const coverage = await coverageOfOutput(out, { format });
    expect(coverage.series.map((s) => `${s.code} ${s.interval}`)).toEqual(['BTCUSDT 1h', 'BTCUSDT 1m', 'ETHUSDT 1h', 'ETHUSDT 1m']);
    expect(await coverageOfOutput(s3, { format })).toEqual(coverage);
    expect(await readLakeRecords(s3, 'kline', format)).toEqual(await readLakeRecords(out, 'kline', format));
  });

  it('a missing or cut object is a problem of that file, as a missing or cut local file is', async () => {
    const { out, s3 } = await lakes();
    const [gone, cut] = (await lakeDataset(out, 'kline', format))!.files;
    await s3.delete(gone!.key);
    await s3.put(cut!.key, (await s3.readRange(cut!.key, 0, cut!.listed.bytes - 20)));
    const [kline] = await summarizeLake(s3);
    expect(kline!.problems).toContain(`kline/${gone!.path}: listed in the manifest but missing`);
    expect(kline!.problems).toContain(`kline/${cut!.path}: ${cut!.listed.bytes - 20} bytes, the manifest says ${cut!.listed.bytes}`);
  });
});
