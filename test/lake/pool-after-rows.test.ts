/**
 * poolAfterRows: a small run's files are encoded on the calling thread and no worker is started;
 * once more rows than the bound have been handed over, every later file goes to the pool.
 */
import { describe, expect, it } from 'vitest';
import { poolAfterRows } from '../../src/lake/encode/pool-after-rows.js';
import type { FileJob, StagedFileWriter } from '../../src/lake/encode/staged-file-writer.js';

/** A writer that records what it is asked (the combinator only routes; encoding is tested elsewhere). */
function recording(name: string, log: string[]): StagedFileWriter {
  return {
    warm: () => void log.push(`${name} warm`),
    ready: async () => void log.push(`${name} ready`),
    write: async (job) => {
      log.push(`${name} write ${job.rows}`);
      return { bytes: job.rows, sha256: name };
    },
    close: async () => void log.push(`${name} close`),
  };
}

const job = (rows: number): FileJob => ({ path: `/x/${rows}`, rows, columns: [], metadata: new Map() });

async function stage(writer: StagedFileWriter, rows: number): Promise<string> {
  writer.warm();
  await writer.ready();
  return (await writer.write(job(rows))).sha256;
}

describe('poolAfterRows', () => {
  it('never starts the pool for a run under the bound', async () => {
    const log: string[] = [];
    const writer = poolAfterRows(recording('thread', log), recording('pool', log), 20_000);
    expect([await stage(writer, 14_400), await stage(writer, 5_600)]).toEqual(['thread', 'thread']);
    await writer.close();
    expect(log.filter((l) => l.startsWith('pool'))).toEqual(['pool close']);
  });

  it('passes the bound on the calling thread, then warms the pool and sends it every later file', async () => {
    const log: string[] = [];
    const writer = poolAfterRows(recording('thread', log), recording('pool', log), 20_000);
    expect([await stage(writer, 15_000), await stage(writer, 10_000), await stage(writer, 1), await stage(writer, 500)]).toEqual(['thread', 'thread', 'pool', 'pool']);
    expect(log).toEqual([
      'thread ready',
      'thread write 15000',
      'thread ready',
      'pool warm',
      'thread write 10000',
      'pool warm',
      'pool ready',
      'pool write 1',
      'pool warm',
      'pool ready',
      'pool write 500',
    ]);
  });

  it('with a bound of 0, the pool takes every file from the first', async () => {
    const log: string[] = [];
    const writer = poolAfterRows(recording('thread', log), recording('pool', log), 0);
    expect(await stage(writer, 3)).toBe('pool');
    expect(log).toEqual(['pool warm', 'pool ready', 'pool write 3']);
  });
});
