/**
 * A commit step that fails because the lake changed hands meanwhile (the new holder finished the
 * commit: the staged object this writer was about to rename is gone) is reported as the lost lease,
 * its cause, not as the missing object.
 */
import { describe, expect, it } from 'vitest';
import { SinkError } from '../../../src/core/errors.js';
import { rollForward, type CommitJournal } from '../../../src/lake/commit/commit-journal.js';
import { localStorage } from '../../../src/lake/storage/local-storage.js';
import { tempDir } from '../../sinks/helpers.js';

function journal(): CommitJournal {
  return {
    version: 2,
    runId: 'r1',
    dataset: 'kline',
    format: 'parquet',
    add: [{ from: '_quotelake/staging/r1/kline-parquet/part-r1-00001.parquet', to: 'kline/interval=1m/year=2026/date=2026-11-20/part-r1-00001.parquet' }],
    retire: [],
    manifest: { version: 2, dataset: 'kline', format: 'parquet', schemaVersion: 1, quotelakeVersion: '0.1.0', updatedAt: '2026-11-20T00:00:00.000Z', files: [], retired: [] } as never,
  };
}

describe('rollForward under a lease', () => {
  it('a step that fails once the lease is gone reports the lease, not the step', async () => {
    const storage = localStorage(await tempDir());
    let checks = 0;
    const guard = () => {
      if (checks++ > 0) throw new Error('lease lost: another holder took the lake');
    };
    await expect(rollForward(storage, journal(), {}, guard)).rejects.toThrow('lease lost');
  });

  it('with the lease held, the step\'s own error is reported', async () => {
    const storage = localStorage(await tempDir());
    await expect(rollForward(storage, journal(), {}, () => undefined)).rejects.toThrow(SinkError);
    await expect(rollForward(storage, journal(), {}, () => undefined)).rejects.toThrow(/neither .* nor .* exists/);
  });
});
