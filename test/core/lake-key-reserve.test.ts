/**
 * The bound an s3:// prefix is held to (core/lake-key-reserve.ts) covers the keys the lake really
 * builds: each is made here by its own builder, with the longest values a run can give it.
 */
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INTERVALS } from '../../src/core/records.js';
import { klinePartition } from '../../src/core/kline-partition.js';
import { checkpointLakeKey, LAKE_KEY_RESERVE_BYTES, MAX_PIPELINE_NAME_CHARS, SAMPLE_MAINTENANCE_ID, SAMPLE_RUN_ID } from '../../src/core/lake-key-reserve.js';
import { checkpointKeyProblem, MAX_S3_KEY_BYTES, MAX_S3_PREFIX_BYTES, parseS3Url } from '../../src/core/s3-url.js';
import { writeProbeKey } from '../../src/lake/check-output-storage.js';
import { checkpointKey, commitKey, lastCheckpointKey } from '../../src/lake/delta/delta-paths.js';
import { journalRelPath, STAGING_DIR } from '../../src/lake/lake-paths.js';
import { REJECTED_DIR } from '../../src/lake/rejected-writer.js';
import { partitionSegment, safeFileToken } from '../../src/lake/partition-path.js';
import { DATASETS } from '../../src/core/records.js';
import { LAKE_STATE_DIR } from '../../src/runtime/state-location.js';
import { createMaintenanceId, createRunId } from '../../src/runtime/run-id.js';

const RUN = safeFileToken(createRunId(new Date('9999-12-31T23:59:59Z')));
const MAINTENANCE = safeFileToken(createMaintenanceId('compact', new Date('9999-12-31T23:59:59.999Z')));
const bytes = (key: string) => Buffer.byteLength(key, 'utf8');

describe('the room the lake keeps after an s3:// prefix', () => {
  it('holds every key a run writes, built by its own builder', () => {
    const keys: string[] = [writeProbeKey(RUN), `_quotelake/probe/conditional-create-lease-${RUN}`, posix.join(LAKE_STATE_DIR, 'runs', `${RUN}.json`)];
    for (const dataset of DATASETS) {
      for (const format of ['parquet', 'arrow']) {
        // A compaction stages its files as a run does, under its own (longer) id.
        for (const id of [RUN, MAINTENANCE]) {
          keys.push(journalRelPath(id, dataset, format));
          for (const interval of INTERVALS) {
            const file = `part-${id}-${'9'.repeat(10)}.${format}`;
            keys.push(posix.join(STAGING_DIR, id, `${dataset}-${format}`, klinePartition(interval, Date.parse('9999-12-31T00:00:00Z')), file));
          }
        }
      }
      keys.push(commitKey(dataset, Number.MAX_SAFE_INTEGER), checkpointKey(dataset, Number.MAX_SAFE_INTEGER), lastCheckpointKey(dataset));
      const rejected = posix.join(REJECTED_DIR, dataset, partitionSegment('date', '9999-12-31'), `rejected-${RUN}.ndjson`);
      keys.push(posix.join(STAGING_DIR, RUN, `${rejected}.${'9'.repeat(10)}`));
    }
    // The samples the reserve is built from have the builders' lengths.
    expect([RUN.length, MAINTENANCE.length]).toEqual([SAMPLE_RUN_ID.length, SAMPLE_MAINTENANCE_ID.length]);
    expect(MAINTENANCE).toMatch(/^compact-99991231T235959999Z-[0-9a-f]{6}$/);
    const longest = Math.max(...keys.map(bytes));
    expect(longest).toBeLessThanOrEqual(LAKE_KEY_RESERVE_BYTES);
    expect(LAKE_KEY_RESERVE_BYTES).toBe(181); // a compaction's staged K-line file of a daily or longer interval
  });

  it('checks a checkpoint key, set by the pipeline name, on its own', () => {
    expect(checkpointLakeKey('kline-backfill')).toBe(posix.join(LAKE_STATE_DIR, 'checkpoints', 'kline-backfill.json'));
    const longest = 'p'.repeat(250) + '/' + 'p'.repeat(250) + '/' + 'p'.repeat(250) + '/' + 'p'.repeat(MAX_S3_PREFIX_BYTES - 753);
    expect(checkpointKeyProblem(`s3://lake/${longest}`, 'n'.repeat(147))).toBeUndefined(); // 843 + 34 + 147 = 1024
    expect(checkpointKeyProblem(`s3://lake/${longest}`, 'n'.repeat(MAX_PIPELINE_NAME_CHARS))).toBe(
      `its checkpoint _quotelake/state/checkpoints/${'n'.repeat(200)}.json under s3://lake/${'p'.repeat(50)}… makes an object key of 1077 bytes, and S3 allows 1024: shorten the prefix or the pipeline's name by 53 bytes`,
    );
  });

  it('takes a prefix of MAX_S3_PREFIX_BYTES and refuses one byte more, naming what is left', () => {
    expect(MAX_S3_PREFIX_BYTES + 1 + LAKE_KEY_RESERVE_BYTES).toBe(MAX_S3_KEY_BYTES);
    const fits = ['p'.repeat(250), 'p'.repeat(250), 'p'.repeat(250), 'p'.repeat(MAX_S3_PREFIX_BYTES - 753)].join('/');
    expect(parseS3Url(`s3://lake/${fits}`).prefix).toBe(`${fits}/`);
    expect(() => parseS3Url(`s3://lake/${fits}p`)).toThrow(
      `the prefix is ${MAX_S3_PREFIX_BYTES + 1} bytes long: an object key has at most 1024 bytes, which leaves ${LAKE_KEY_RESERVE_BYTES - 1} for the lake's own keys, and they need up to ${LAKE_KEY_RESERVE_BYTES}; write a prefix of at most ${MAX_S3_PREFIX_BYTES} bytes (1 fewer)`,
    );
  });

  it('counts bytes, not characters', () => {
    const wide = ['é'.repeat(120), 'é'.repeat(120), 'é'.repeat(120), 'é'.repeat(120)].join('/'); // 483 characters, 963 bytes
    expect(() => parseS3Url(`s3://lake/${wide}`)).toThrow('the prefix is 963 bytes long');
  });
});
