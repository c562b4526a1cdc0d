/** The encode pool starts its worker threads as files wait for them, never all at once. */
import { afterEach, describe, expect, it } from 'vitest';
import { EncodePool } from '../../src/lake/encode/encode-pool.js';
import type { FileJob } from '../../src/lake/encode/staged-file-writer.js';

const url = new URL('../fixtures/echo-encode-worker.mjs', import.meta.url);
const job = (n: number): FileJob => ({ path: `/nowhere/${n}.parquet`, rows: 0, columns: [], metadata: new Map() });

const pools: EncodePool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

function pool(workers: number): EncodePool {
  const p = new EncodePool({ url, workers });
  pools.push(p);
  return p;
}

describe('EncodePool', () => {
  it('warm() and one file at a time start one worker of many', async () => {
    const p = pool(64);
    expect(p.started).toBe(0);
    p.warm();
    expect(p.started).toBe(1);
    const threads = new Set<string>();
    for (let i = 0; i < 5; i++) threads.add((await p.write(job(i))).sha256);
    expect(p.started).toBe(1);
    expect(threads.size).toBe(1);
  });

  it('a file that arrives while every started worker is busy starts another, up to the ceiling', async () => {
    const p = pool(3);
    const written = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => p.write(job(i))));
    expect(p.started).toBe(3);
    expect(new Set(written.map((w) => w.sha256)).size).toBe(3);
  });

  it('close() stops them; a later file starts one again', async () => {
    const p = pool(4);
    await Promise.all([p.write(job(0)), p.write(job(1))]);
    expect(p.started).toBe(2);
    await p.close();
    expect(p.started).toBe(0);
    await p.write(job(2));
    expect(p.started).toBe(1);
  });
});
