/**
 * What an s3:// output adds around the sink: the output check's answers (a mocked client for a
 * refusal s3rver cannot give) and the local scratch folder a killed run leaves behind.
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_DECIMAL } from '../../src/core/decimal.js';
import { EnvironmentError } from '../../src/core/errors.js';
import type { KlineRow } from '../../src/core/records.js';
import { checkOutputStorage } from '../../src/lake/check-output-storage.js';
import { scratchFolderName } from '../../src/lake/commit/local-scratch.js';
import { PartitionedSink } from '../../src/lake/commit/partitioned-sink.js';
import { klineSpec } from '../../src/lake/datasets/kline.js';
import { parquetEncoder } from '../../src/lake/parquet/parquet-encoder.js';
import { S3Storage } from '../../src/lake/storage/s3-storage.js';
import { klineRows, rawKline, T0 } from '../sinks/fixtures.js';
import { runContext } from '../sinks/helpers.js';
import { useTestLakes } from './test-lakes.js';

const serviceError = (name: string, status: number): S3ServiceException =>
  new S3ServiceException({ name, $fault: status >= 500 ? 'server' : 'client', $metadata: { httpStatusCode: status }, message: `${name} (mocked)` });

describe('the output check of an s3:// output', () => {
  const lakes = useTestLakes('s3');

  it('passes on a usable prefix and leaves no probe behind', async () => {
    const out = await lakes.fresh();
    await checkOutputStorage(lakes.storage(out)!, 'run-1');
    expect(await lakes.keys(out)).toEqual([]);
  });

  it.each([
    ['a LIST refused', 'list', 'AccessDenied', 403, 'QL_S3_ACCESS_DENIED'],
    ['a PUT refused', 'put', 'AccessDenied', 403, 'QL_S3_ACCESS_DENIED'],
    ['credentials refused', 'list', 'InvalidAccessKeyId', 403, 'QL_S3_CREDENTIALS'],
  ] as const)('%s: an EnvironmentError naming the output, the operation and the fix', async (_what, command, name, status, code) => {
    const client = new S3Client({ region: 'us-east-1', credentials: { accessKeyId: 'AKIDMOCK', secretAccessKey: 'mock-secret-never-shown' } });
    const mock = mockClient(client);
    mock.on(ListObjectsV2Command).resolves({ Contents: [], IsTruncated: false });
    mock.on(PutObjectCommand).resolves({});
    if (command === 'list') mock.on(ListObjectsV2Command).rejects(serviceError(name, status));
    else mock.on(PutObjectCommand).rejects(serviceError(name, status));
    const error = await checkOutputStorage(new S3Storage(client, 's3://lake-bucket/prod'), 'run-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EnvironmentError);
    expect((error as EnvironmentError).code).toBe(code);
    expect((error as EnvironmentError).message).toMatch(/^output s3:\/\/lake-bucket\/prod: (ListObjectsV2|PutObject) s3:\/\/lake-bucket\/prod\/_quotelake\//);
    expect((error as EnvironmentError).message).not.toContain('mock-secret');
    client.destroy();
  });
});

describe('a killed run on S3', () => {
  const lakes = useTestLakes('s3');
  const opened: PartitionedSink<KlineRow>[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
  });

  const sink = (out: string, maxBufferedBytes = 1 << 30) => {
    const s = new PartitionedSink<KlineRow>({ outputDir: out, storage: lakes.storage(out)!, spec: klineSpec, encoder: parquetEncoder({ rowGroupRows: 131072 }), decimal: DEFAULT_DECIMAL, maxRowsPerFile: 1_000_000, maxBufferedRows: 10_000, maxBufferedBytes });
    opened.push(s);
    return s;
  };

  it('leaves staged objects and a local scratch folder; the next recover() removes both', async () => {
    const out = await lakes.fresh();
    const token = `dead-${Date.now()}`;
    const row = klineRows([rawKline('BTCUSDT', '1m', T0, '1')])[0]!;
    // Room for two rows: older pages are spilled to the scratch folder; one partition is staged.
    const dead = new PartitionedSink<KlineRow>({ outputDir: out, storage: lakes.storage(out)!, spec: klineSpec, encoder: parquetEncoder({ rowGroupRows: 131072 }), decimal: DEFAULT_DECIMAL, maxRowsPerFile: 1_000_000, maxBufferedRows: 10_000, maxBufferedBytes: 2 * klineSpec.bytesPerRow(row) });
    const ctx = runContext(token);
    for (let k = 10; k > 0; k--) await dead.write({ stream: 'k', seq: 10 - k, records: klineRows([0, 1, 2].map((j) => rawKline('BTCUSDT', '1m', T0 + 60 * (k * 3 + j), '1'))) }, ctx);
    await dead.write({ stream: 'e', seq: 11, records: klineRows([rawKline('ETHUSDT', '1m', T0 + 86_400 * 3, '2')]) }, ctx);
    await dead.flush(ctx);
    // The process "dies" here: nothing is closed.
    const scratch = join(tmpdir(), scratchFolderName(lakes.storage(out)!, token));
    expect(existsSync(scratch)).toBe(true);
    expect((await lakes.keys(out)).some((k) => k.startsWith(`_quotelake/staging/${token}/`))).toBe(true);
    expect((await lakes.keys(out)).filter((k) => !k.startsWith('_quotelake/'))).toEqual([]);
    await sink(out).recover(runContext('next'));
    expect(await lakes.keys(out)).toEqual([]);
    expect(existsSync(scratch)).toBe(false);
  });

  it('a committed run removes its scratch folder', async () => {
    const out = await lakes.fresh();
    const token = `ok-${Date.now()}`;
    const s = sink(out);
    await s.write({ stream: 'k', seq: 1, records: klineRows([rawKline('BTCUSDT', '1m', T0, '1')]) }, runContext(token));
    await s.commit(runContext(token));
    expect(existsSync(join(tmpdir(), scratchFolderName(lakes.storage(out)!, token)))).toBe(false);
    expect((await lakes.keys(out)).filter((k) => k.startsWith('_quotelake/staging'))).toEqual([]);
  });
});
