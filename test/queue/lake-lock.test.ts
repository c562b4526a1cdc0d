import { describe, expect, it } from 'vitest';
import { withLakeLock } from '../../src/queue/lake-lock.js';
import { useRedisServer, useTwoConnections } from '../helpers/redis-server.js';

describe('withLakeLock', () => {
  const server = useRedisServer();
  const connections = useTwoConnections(server);

  it('one holder at a time across connections; the lock is gone after', async () => {
    const [a, b] = connections();
    const trace: string[] = [];
    let releaseFirst!: () => void;
    const gate = new Promise<void>((r) => (releaseFirst = r));
    // The second asks once the first holds the lock (a fixed pause lost the race on a loaded machine).
    let firstIn!: () => void;
    const holding = new Promise<void>((r) => (firstIn = r));
    const first = withLakeLock(a, 'lake1', async () => {
      trace.push('a in');
      firstIn();
      await gate;
      trace.push('a out');
    });
    await holding;
    const second = withLakeLock(b, 'lake1', async () => void trace.push('b in'), { pollMs: 10 });
    await new Promise((r) => setTimeout(r, 100));
    expect(trace).toEqual(['a in']);
    releaseFirst();
    await Promise.all([first, second]);
    expect(trace).toEqual(['a in', 'a out', 'b in']);
    expect(await a.exists('quotelake:lake-lock:lake1')).toBe(0);
  });

  it('another lake is not blocked', async () => {
    const [a, b] = connections();
    let inner = false;
    await withLakeLock(a, 'lake2', () => withLakeLock(b, 'lake3', async () => void (inner = true)));
    expect(inner).toBe(true);
  });

  it('a dead holder (never released) blocks for at most its time to live', async () => {
    const [a, b] = connections();
    await a.set('quotelake:lake-lock:lake4', 'someone-killed', 'PX', 300);
    const started = Date.now();
    await withLakeLock(b, 'lake4', async () => undefined, { pollMs: 20 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('a holder whose work outlasts the time to live keeps the lock (renewed)', async () => {
    const [a, b] = connections();
    let otherGotIn = false;
    const long = withLakeLock(a, 'lake5', () => new Promise((r) => setTimeout(r, 700)), { ttlMs: 300 });
    await new Promise((r) => setTimeout(r, 450));
    const other = withLakeLock(b, 'lake5', async () => void (otherGotIn = true), { pollMs: 20 });
    await new Promise((r) => setTimeout(r, 100));
    expect(otherGotIn).toBe(false);
    await Promise.all([long, other]);
    expect(otherGotIn).toBe(true);
  });
});
