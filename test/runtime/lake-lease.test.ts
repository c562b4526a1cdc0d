/**
 * The lease that keeps one writer per lake on an object store. The logic runs against LocalStorage's
 * put-if-absent (with the claim-based compare-and-swap), against a mocked S3 client that answers
 * If-None-Match / If-Match as AWS does (the 412 paths), and once against a real s3rver, which ignores
 * conditions (the lease must say so). The clock is injected and the heartbeat driven by hand.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localStorage } from '../../src/lake/storage/local-storage.js';
import type { LakeStorage } from '../../src/lake/storage/lake-storage.js';
import { S3Storage } from '../../src/lake/storage/s3-storage.js';
import { acquireLakeLease, LEASE_KEY, type LeaseOptions } from '../../src/runtime/lake-lease.js';
import { useS3Server } from '../helpers/s3-server.js';
import { fakeConditionalS3 } from './fake-conditional-s3.js';

const T0 = Date.parse('2026-03-02T10:00:00.000Z');

/** A clock that moves only when told, and a heartbeat that fires only when told. */
function harness() {
  let now = T0;
  const ticks: (() => void)[] = [];
  const lost: Error[] = [];
  const options = (host: string, pid: number): LeaseOptions => ({
    clock: { now: () => now },
    host,
    pid,
    leaseMs: 60_000,
    renewEveryMs: 10_000,
    every: (_ms, tick) => {
      ticks.push(tick);
      return () => undefined;
    },
    onLost: (error) => lost.push(error),
  });
  return { options, lost, ticks, advance: (ms: number) => (now += ms) };
}

const leaseOf = async (storage: LakeStorage) => JSON.parse(Buffer.from((await storage.read(LEASE_KEY))!).toString('utf8')) as Record<string, unknown>;

interface Backend {
  readonly name: string;
  open(): Promise<{ storage: LakeStorage; cleanup(): Promise<void> }>;
}

const backends: Backend[] = [
  {
    name: 'LocalStorage (put-if-absent + claimed compare-and-swap)',
    async open() {
      const dir = await mkdtemp(join(tmpdir(), 'ql-lease-'));
      return { storage: localStorage(dir), cleanup: () => rm(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'S3Storage on a mocked client (If-None-Match, If-Match)',
    async open() {
      const fake = fakeConditionalS3();
      return { storage: new S3Storage(fake.client, 's3://lake-bucket/prod'), cleanup: async () => fake.mock.restore() };
    },
  },
];

describe.each(backends)('lake lease on $name', (backend) => {
  let storage: LakeStorage;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ storage, cleanup } = await backend.open());
  });
  afterEach(async () => cleanup());

  it('takes a free lease, refuses a second run while it is valid, and releases it', async () => {
    const h = harness();
    const lease = await acquireLakeLease(storage, { runId: 'run-a', pipeline: 'kline' }, h.options('host-a', 11));
    expect(lease.enforced).toBe(true);
    expect(await leaseOf(storage)).toEqual({
      version: 1,
      runId: 'run-a',
      pipeline: 'kline',
      host: 'host-a',
      pid: 11,
      startedAt: '2026-03-02T10:00:00.000Z',
      renewedAt: '2026-03-02T10:00:00.000Z',
      expiresAt: '2026-03-02T10:01:00.000Z',
    });
    h.advance(59_999);
    await expect(acquireLakeLease(storage, { runId: 'run-b', pipeline: 'kline' }, h.options('host-b', 22))).rejects.toMatchObject({
      code: 'QL_OUTPUT_LOCKED',
      message: expect.stringContaining('in use by run run-a of pipeline kline (pid 11 on host-a)'),
    });
    await lease.release();
    expect(await storage.exists(LEASE_KEY)).toBe(false);
    const next = await acquireLakeLease(storage, { runId: 'run-b', pipeline: 'kline' }, h.options('host-b', 22));
    expect((await leaseOf(storage)).runId).toBe('run-b');
    await next.release();
  });

  it('a heartbeat moves the expiry on, so a live holder is never taken over', async () => {
    const h = harness();
    const lease = await acquireLakeLease(storage, { runId: 'run-a', pipeline: 'kline' }, h.options('host-a', 11));
    for (let beat = 1; beat <= 9; beat++) {
      h.advance(10_000);
      h.ticks[0]!();
      await lease.renew();
    }
    // 90 s after the start: the first lease would have expired, the renewed one runs to 10:02:30.
    expect(await leaseOf(storage)).toMatchObject({ renewedAt: '2026-03-02T10:01:30.000Z', expiresAt: '2026-03-02T10:02:30.000Z' });
    await expect(acquireLakeLease(storage, { runId: 'run-b', pipeline: 'kline' }, h.options('host-b', 22))).rejects.toMatchObject({ code: 'QL_OUTPUT_LOCKED' });
    expect(() => lease.assertHeld()).not.toThrow();
    expect(h.lost).toEqual([]);
    await lease.release();
  });

  it('a dead holder (no renewal) is taken over once its lease expired; it learns so at its next beat', async () => {
    const h = harness();
    const dead = await acquireLakeLease(storage, { runId: 'run-a', pipeline: 'kline' }, h.options('host-a', 11));
    h.advance(60_000);
    const next = await acquireLakeLease(storage, { runId: 'run-b', pipeline: 'kline' }, h.options('host-b', 22));
    expect(await leaseOf(storage)).toMatchObject({ runId: 'run-b', host: 'host-b', expiresAt: '2026-03-02T10:02:00.000Z' });
    // The first holder was only paused: its renewal finds the lease gone to run-b and stops it.
    await expect(dead.renew()).rejects.toMatchObject({ code: 'QL_LAKE_LEASE_LOST', message: expect.stringContaining('run run-b (pid 22 on host-b) holds it now') });
    expect(h.lost.map((e) => (e as { code?: string }).code)).toEqual(['QL_LAKE_LEASE_LOST']);
    expect(() => dead.assertHeld()).toThrow(/lost the lease/);
    // Its release leaves the successor's lease alone.
    await dead.release();
    expect((await leaseOf(storage)).runId).toBe('run-b');
    await next.release();
  });

  it('a holder whose lease ran out unrenewed refuses to commit even before anyone took over', async () => {
    const h = harness();
    const lease = await acquireLakeLease(storage, { runId: 'run-a', pipeline: 'kline' }, h.options('host-a', 11));
    h.advance(60_000);
    expect(() => lease.assertHeld()).toThrow(expect.objectContaining({ code: 'QL_LAKE_LEASE_LOST' }));
    // Said as what happened: nobody else holds it.
    expect(() => lease.assertHeld()).toThrow(/lost the lease .*: it ran out at .* without a renewal \(the store did not answer them\)/);
    await lease.release();
  });

  it('of two contenders for one expired lease, exactly one wins', async () => {
    const h = harness();
    await acquireLakeLease(storage, { runId: 'run-dead', pipeline: 'kline' }, h.options('host-a', 11));
    h.advance(61_000);
    const outcomes = await Promise.allSettled(
      ['run-b', 'run-c', 'run-d'].map((runId, i) => acquireLakeLease(storage, { runId, pipeline: 'kline' }, h.options(`host-${i}`, 30 + i))),
    );
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toMatchObject({ code: 'QL_OUTPUT_LOCKED' });
    expect((await leaseOf(storage)).runId).toBe((won[0] as PromiseFulfilledResult<{ record(): { runId: string } }>).value.record().runId);
  });

  it('refuses a lease shorter than two renewals', async () => {
    const h = harness();
    await expect(acquireLakeLease(storage, { runId: 'r', pipeline: 'p' }, { ...h.options('h', 1), leaseMs: 15_000 })).rejects.toMatchObject({ code: 'QL_LAKE_LEASE_CONFIG' });
  });
});

describe('lake lease: the 412 answers of S3 (mocked client)', () => {
  it('a takeover whose If-Match is refused (another contender replaced the lease first) re-reads and backs off', async () => {
    const fake = fakeConditionalS3();
    const storage = new S3Storage(fake.client, 's3://lake-bucket/prod');
    const h = harness();
    await acquireLakeLease(storage, { runId: 'run-dead', pipeline: 'kline' }, h.options('host-a', 11));
    h.advance(61_000);
    const winner = JSON.stringify({ version: 1, runId: 'run-fast', pipeline: 'kline', host: 'host-f', pid: 7, startedAt: '2026-03-02T10:01:01.000Z', renewedAt: '2026-03-02T10:01:01.000Z', expiresAt: '2026-03-02T10:02:01.000Z' });
    // Between our read of the expired lease and our conditional PUT, another host takes it over.
    fake.hooks.beforeWrite = (key) => {
      if (key !== `prod/${LEASE_KEY}`) return;
      fake.hooks.beforeWrite = undefined;
      fake.putDirect(key, winner);
    };
    await expect(acquireLakeLease(storage, { runId: 'run-slow', pipeline: 'kline' }, h.options('host-s', 8))).rejects.toMatchObject({
      code: 'QL_OUTPUT_LOCKED',
      message: expect.stringContaining('run run-fast'),
    });
    const conditional = fake.mock.commandCalls(PutObjectCommand).filter((c) => c.args[0].input.Key === `prod/${LEASE_KEY}` && c.args[0].input.IfMatch !== undefined);
    expect(conditional).toHaveLength(1);
    expect((await leaseOf(storage)).runId).toBe('run-fast');
  });

  it('our own conditional write that landed but whose retry was refused (412) is our lease, not another run', async () => {
    for (const takeover of [false, true]) {
      const fake = fakeConditionalS3();
      const storage = new S3Storage(fake.client, 's3://lake-bucket/prod');
      const h = harness();
      if (takeover) {
        // An expired lease to take over: our If-Match write lands, its answer is lost, the retry meets our own ETag.
        await acquireLakeLease(storage, { runId: 'run-dead', pipeline: 'kline' }, h.options('host-a', 11));
        h.advance(61_000);
      }
      let lost = 0;
      fake.hooks.loseAnswer = (key) => key === `prod/${LEASE_KEY}` && lost++ === 0;
      const lease = await acquireLakeLease(storage, { runId: 'run-b', pipeline: 'kline' }, h.options('host-b', 12));
      expect(lost).toBeGreaterThan(0);
      expect(await leaseOf(storage)).toMatchObject({ runId: 'run-b', pid: 12, host: 'host-b' });
      // It is held and renewed as any lease, and refuses a second run.
      h.advance(10_000);
      await lease.renew();
      expect((await leaseOf(storage)).renewedAt).toBe(new Date(h.advance(0)).toISOString());
      await expect(acquireLakeLease(storage, { runId: 'run-c', pipeline: 'kline' }, h.options('host-c', 13))).rejects.toMatchObject({ code: 'QL_OUTPUT_LOCKED' });
      await lease.release();
      expect(await storage.read(LEASE_KEY)).toBeUndefined();
    }
  });

  it('a renewal refused with 412 marks the lease lost and calls onLost once', async () => {
    const fake = fakeConditionalS3();
    const storage = new S3Storage(fake.client, 's3://lake-bucket/prod');
    const h = harness();
    const lease = await acquireLakeLease(storage, { runId: 'run-a', pipeline: 'kline' }, h.options('host-a', 11));
    h.advance(10_000);
    // A foreign write keeps our runId but changes the ETag: If-Match on our version must fail.
    fake.hooks.beforeWrite = (key) => {
      fake.hooks.beforeWrite = undefined;
      fake.putDirect(key, JSON.stringify({ runId: 'run-z', pid: 99, host: 'host-z' }));
    };
    await expect(lease.renew()).rejects.toMatchObject({ code: 'QL_LAKE_LEASE_LOST' });
    await expect(lease.renew()).rejects.toMatchObject({ code: 'QL_LAKE_LEASE_LOST' });
    expect(h.lost).toHaveLength(1);
  });

  it('a store that does not answer keeps the lease while it lasts, and loses it after', async () => {
    const fake = fakeConditionalS3();
    const storage = new S3Storage(fake.client, 's3://lake-bucket/prod');
    const h = harness();
    const lease = await acquireLakeLease(storage, { runId: 'run-a', pipeline: 'kline' }, h.options('host-a', 11));
    fake.hooks.beforeWrite = () => {
      throw Object.assign(new Error('socket hang up'), { name: 'TimeoutError' });
    };
    h.advance(10_000);
    await expect(lease.renew()).rejects.toBeTruthy();
    expect(h.lost).toEqual([]);
    h.advance(50_000);
    await expect(lease.renew()).rejects.toMatchObject({ code: 'QL_LAKE_LEASE_LOST', message: expect.stringContaining('without a renewal (the store did not answer them)') });
    expect(h.lost).toHaveLength(1);
  });
});

describe('lake lease on a real S3-compatible server (s3rver ignores conditional writes)', () => {
  const server = useS3Server();

  it('takes, refuses and releases, and says that exclusion is not enforced there', async () => {
    const storage = new S3Storage(server().client(), `s3://${server().bucket}/lease-smoke`);
    const h = harness();
    const lease = await acquireLakeLease(storage, { runId: 'run-a', pipeline: 'kline' }, h.options('host-a', 11));
    expect(lease.enforced).toBe(false);
    expect(lease.path).toBe(`s3://${server().bucket}/lease-smoke/_quotelake/lock`);
    expect(await leaseOf(storage)).toMatchObject({ runId: 'run-a', expiresAt: '2026-03-02T10:01:00.000Z' });
    // The read before the write still refuses a run that starts while the lease is live.
    await expect(acquireLakeLease(storage, { runId: 'run-b', pipeline: 'kline' }, h.options('host-b', 22))).rejects.toMatchObject({ code: 'QL_OUTPUT_LOCKED' });
    h.advance(10_000);
    await lease.renew();
    expect(await leaseOf(storage)).toMatchObject({ expiresAt: '2026-03-02T10:01:10.000Z' });
    await lease.release();
    expect(await storage.exists(LEASE_KEY)).toBe(false);
    expect(await storage.list('_quotelake/')).toEqual([]);
  });
});

describe('a lease object that is not a lease record', () => {
  it('a lease object that names no run is refused as such, not as "run ? of pipeline ?"', async () => {
    const h = harness();
    const dir = await mkdtemp(join(tmpdir(), 'ql-lease-foreign-'));
    const storage = localStorage(dir);
    await storage.put(LEASE_KEY, 'copied here by hand\n');
    const refused = await acquireLakeLease(storage, { runId: 'run-b', pipeline: 'kline' }, h.options('host-b', 22)).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'QL_OUTPUT_LOCKED', message: expect.stringContaining('names no run (unreadable, or not a quotelake lease record): it counts as held for 60 s after it was written') });
    expect((refused as Error).message).not.toContain('?');
    expect((refused as { hint?: string }).hint).toContain('check what else writes under this prefix');
    await rm(dir, { recursive: true, force: true });
  });
});
