import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { ConfigError, StateConflictError } from '../../src/core/errors.js';
import { isTempFile, removeStaleTempFiles, writeFileAtomic } from '../../src/core/atomic-write.js';
import { checkpointSink } from '../../src/runtime/checkpoint-sink.js';
import { CheckpointStore } from '../../src/runtime/checkpoint-store.js';
import { createRunEvents } from '../../src/runtime/run-events.js';
import { createRunId, RUN_ID } from '../../src/runtime/run-id.js';
import { estimateRecordBytes, rechunk } from '../../src/runtime/rechunk.js';

const tmp = () => mkdtemp(join(tmpdir(), 'ql-state-'));

describe('writeFileAtomic', () => {
  it('replaces the file whole and leaves no temp file', async () => {
    const dir = await tmp();
    const path = join(dir, 'a', 'state.json');
    await writeFileAtomic(path, 'one');
    await writeFileAtomic(path, 'two');
    expect(await readFile(path, 'utf8')).toBe('two');
    expect(await readdir(join(dir, 'a'))).toEqual(['state.json']);
  });

  it('concurrent readers only ever see a complete old or new version', async () => {
    const dir = await tmp();
    const path = join(dir, 'cp.json');
    const big = (n: number) => JSON.stringify({ n, pad: 'x'.repeat(200_000) });
    await writeFileAtomic(path, big(0));
    const seen = new Set<number>();
    const writes = (async () => {
      for (let n = 1; n <= 20; n++) await writeFileAtomic(path, big(n));
    })();
    let done = false;
    void writes.then(() => (done = true));
    while (!done) {
      const parsed = JSON.parse(await readFile(path, 'utf8')) as { n: number; pad: string };
      expect(parsed.pad.length).toBe(200_000);
      seen.add(parsed.n);
    }
    await writes;
    expect(JSON.parse(await readFile(path, 'utf8')).n).toBe(20);
    expect(seen.size).toBeGreaterThan(0);
  });

  it('stale temp files are recognised and removed, real files kept', async () => {
    const dir = await tmp();
    await writeFile(join(dir, '.cp.json.tmp-123-abcd'), 'half');
    await writeFile(join(dir, 'cp.json'), '{}');
    expect(isTempFile('.cp.json.tmp-123-abcd')).toBe(true);
    expect(await removeStaleTempFiles(dir)).toEqual(['.cp.json.tmp-123-abcd']);
    expect(await readdir(dir)).toEqual(['cp.json']);
  });
});

describe('CheckpointStore', () => {
  it('round-trips checkpoints per stream in one file per pipeline; stream keys stay data', async () => {
    const dir = await tmp();
    const store = new CheckpointStore(dir, 'kline-backfill');
    expect((await store.load()).size).toBe(0);
    const cps = new Map([
      ['kline/BTCUSDT/1m', { stream: 'kline/BTCUSDT/1m', position: { until: 1_700_000_000 } }],
      ['kline/../../etc/1h', { stream: 'kline/../../etc/1h', position: { until: 1 } }],
    ]);
    await store.save(cps, { now: new Date('2026-11-22T00:00:00Z'), runId: 'r1' });
    expect(store.path).toBe(join(dir, 'checkpoints', 'kline-backfill.json'));
    expect(await readdir(join(dir, 'checkpoints'))).toEqual(['kline-backfill.json']);
    const file = JSON.parse(await readFile(store.path, 'utf8'));
    expect(file).toEqual({
      version: 1,
      pipeline: 'kline-backfill',
      updatedAt: '2026-11-22T00:00:00.000Z',
      runId: 'r1',
      streams: { 'kline/../../etc/1h': { until: 1 }, 'kline/BTCUSDT/1m': { until: 1_700_000_000 } },
    });
    const back = await store.load();
    expect(back.get('kline/BTCUSDT/1m')).toEqual({ stream: 'kline/BTCUSDT/1m', position: { until: 1_700_000_000 } });
  });

  it('records the sink it saved for, and refuses at load the checkpoints saved for another sink', async () => {
    const dir = await tmp();
    const cps = new Map([['kline/BTCUSDT/1h', { stream: 'kline/BTCUSDT/1h', position: { watermark: 1 } }]]);
    // A file of an earlier version (no sink): read by any sink, and the next save records it.
    await new CheckpointStore(dir, 'same').save(cps, { now: new Date('2026-11-22T00:00:00Z') });
    const parquet = new CheckpointStore(dir, 'same', checkpointSink({ type: 'parquet' }));
    expect((await parquet.load()).size).toBe(1);
    await parquet.save(cps, { now: new Date('2026-11-22T00:01:00Z') });
    expect(JSON.parse(await readFile(parquet.path, 'utf8')).sink).toBe('parquet');
    expect((await new CheckpointStore(dir, 'same', 'parquet').load()).size).toBe(1);
    const arrow = new CheckpointStore(dir, 'same', checkpointSink({ type: 'arrow' }));
    await expect(arrow.load()).rejects.toThrow(StateConflictError);
    await expect(arrow.load()).rejects.toThrow(
      `${parquet.path}: the checkpoints of pipeline "same" were saved by a run writing to parquet, and this run writes to arrow: a pipeline's name keys its checkpoints, so it would resume where that run stopped and skip what it never wrote here`,
    );
    // state show and reset read any file.
    expect((await new CheckpointStore(dir, 'same').load()).size).toBe(1);
  });

  it("records the lake it saved for, and refuses at load another lake's checkpoints, a new output's too", async () => {
    const dir = await tmp();
    const cps = new Map([['kline/BTCUSDT/1h', { stream: 'kline/BTCUSDT/1h', position: { watermark: 1 } }]]);
    // A file saved before lakes had ids: read by any lake, and the next save records it.
    await new CheckpointStore(dir, 'p', 'parquet').save(cps, { now: new Date('2026-11-22T00:00:00Z') });
    const mine = new CheckpointStore(dir, 'p', 'parquet', { id: 'aaaa', where: 'out-a' });
    expect((await mine.load()).size).toBe(1);
    await mine.save(cps, { now: new Date('2026-11-22T00:01:00Z') });
    expect(JSON.parse(await readFile(mine.path, 'utf8')).lake).toBe('aaaa');
    expect((await mine.load()).size).toBe(1);
    const other = new CheckpointStore(dir, 'p', 'parquet', { id: 'bbbb', where: 'out-b' });
    await expect(other.load()).rejects.toThrow(StateConflictError);
    await expect(other.load()).rejects.toThrow(
      `${mine.path}: the checkpoints of pipeline "p" were saved for another lake (id aaaa, at ${resolve('out-a')} when they were saved) than out-b (id bbbb): this state folder serves another output, and a run here would resume where that one stopped and never fetch what came before`,
    );
    await expect(new CheckpointStore(dir, 'p', 'parquet', { id: null, where: 'fresh' }).load()).rejects.toThrow(
      `were saved for another lake (id aaaa, at ${resolve('out-a')} when they were saved) than fresh, which has no lake id (a new output, or one whose _quotelake/layout.json was lost): a run here would resume where those checkpoints stopped`,
    );
    // The same place under another id: a lake made anew there, or one whose layout file was lost.
    await expect(new CheckpointStore(dir, 'p', 'parquet', { id: null, where: 'out-a' }).load()).rejects.toThrow(
      'were saved for another lake (id aaaa, the lake at this place when they were saved) than out-a, which has no lake id',
    );
    // A file of an earlier version holds the id alone.
    const { lakeAt: _lakeAt, ...older } = JSON.parse(await readFile(mine.path, 'utf8')) as Record<string, unknown>;
    await writeFile(mine.path, JSON.stringify(older));
    await expect(other.load()).rejects.toThrow('were saved for another lake (id aaaa) than out-b (id bbbb)');
    // state show and reset read any file.
    expect((await new CheckpointStore(dir, 'p').load()).size).toBe(1);
  });

  it('an NDJSON sink is told apart by where its lines go; "-" is stdout', () => {
    expect(checkpointSink({ type: 'ndjson' })).toBe('ndjson stdout');
    expect(checkpointSink({ type: 'ndjson', path: '-' })).toBe('ndjson stdout');
    expect(checkpointSink({ type: 'ndjson', path: 'exports/{dataset}.ndjson' })).toBe('ndjson exports/{dataset}.ndjson');
    expect(checkpointSink({ type: 'parquet', table: 'delta' })).toBe('parquet');
  });

  it('refuses a pipeline name that is not [a-z0-9-]+ and a damaged file', async () => {
    const dir = await tmp();
    expect(() => new CheckpointStore(dir, '../x')).toThrow(ConfigError);
    const store = new CheckpointStore(dir, 'p');
    await writeFileAtomic(store.path, '{"version": 1, "streams": ');
    await expect(store.load()).rejects.toThrow(/checkpoint file is not valid JSON/);
  });
});

describe('createRunId', () => {
  it('is sortable by time and safe as a file name', () => {
    const a = createRunId(new Date('2026-11-22T00:40:00.123Z'), () => new Uint8Array([0, 1, 2, 3, 4, 35]));
    expect(a).toBe('20261122T004000Z-abcde9');
    const b = createRunId(new Date('2026-11-22T00:40:01Z'));
    expect(b).toMatch(RUN_ID);
    expect([b, a].sort()).toEqual([a, b]);
  });
});

describe('createRunEvents', () => {
  it('counts, emits to subscribers and snapshots', () => {
    const ev = createRunEvents();
    const seen: string[] = [];
    const off = ev.on('rows', (p) => seen.push(`${p.dataset}:${p.kind}:${p.count}:${p.total}`));
    ev.on('request', () => {
      throw new Error('a broken listener must not break the run');
    });
    ev.request('/kline');
    ev.request('/kline', 'kline/BTCUSDT/1m');
    ev.streamRows('kline/BTCUSDT/1m', 5);
    ev.streamRows('kline/BTCUSDT/1m', 2);
    ev.rows('kline', 'received', 5);
    ev.rows('kline', 'received', 2);
    off();
    ev.rows('kline', 'written', 7);
    ev.planned('kline/BTCUSDT/1m', 12);
    ev.streamDone('kline/BTCUSDT/1m');
    ev.streamDone('kline/BTCUSDT/1m');
    ev.note('hello');
    ev.shortfall('kline AAPL.US 1m: 300 of 500 bars');
    ev.quota(99);
    expect(seen).toEqual(['kline:received:5:5', 'kline:received:2:7']);
    expect(ev.snapshot()).toEqual({
      requests: { '/kline': 2 },
      rows: { kline: { received: 7, written: 7, merged: 0, rejected: 0 } },
      requestsByStream: { 'kline/BTCUSDT/1m': 1 },
      rowsByStream: { 'kline/BTCUSDT/1m': 7 },
      planned: { 'kline/BTCUSDT/1m': 12 },
      doneStreams: ['kline/BTCUSDT/1m'],
      notes: ['hello', 'kline AAPL.US 1m: 300 of 500 bars'],
      shortfalls: 1,
      stoppedAtQuota: false,
      files: [],
      quotaLeft: 99,
    });
  });
});

describe('rechunk', () => {
  it('keeps a small batch whole and renumbers it', () => {
    let n = 7;
    const out = rechunk({ stream: 's', seq: 0, records: [1, 2, 3] }, { maxRows: 10, maxBytes: 1000 }, () => n++);
    expect(out).toEqual([{ stream: 's', seq: 7, records: [1, 2, 3] }]);
  });
  it('splits by rows, and by estimated bytes when the records are big; only the last piece carries the checkpoint and settledFrom', () => {
    let n = 0;
    const checkpoint = { stream: 's', position: { x: 1 } } as never;
    const byRows = rechunk({ stream: 's', seq: 0, records: Array.from({ length: 25 }, (_, i) => i), checkpoint, settledFrom: 1_000 }, { maxRows: 10, maxBytes: 1 << 20 }, () => n++);
    expect(byRows.map((b) => b.records.length)).toEqual([10, 10, 5]);
    expect(byRows.map((b) => b.checkpoint)).toEqual([undefined, undefined, checkpoint]);
    expect(byRows.map((b) => b.settledFrom)).toEqual([undefined, undefined, 1_000]);
    expect(byRows.map((b) => b.seq)).toEqual([0, 1, 2]);
    // 100 records of about 1,000 bytes against 20,000 bytes: pieces of about 20 records.
    const big = Array.from({ length: 100 }, (_, i) => ({ i, pad: 'x'.repeat(1000) }));
    const byBytes = rechunk({ stream: 's', seq: 0, records: big }, { maxRows: 1000, maxBytes: 20_000 }, () => n++);
    expect(byBytes.map((b) => Object.keys(b).sort())).toEqual(byBytes.map(() => ['records', 'seq', 'stream']));
    expect(byBytes.length).toBeGreaterThanOrEqual(5);
    expect(byBytes.flatMap((b) => b.records)).toEqual(big);
    for (const piece of byBytes) expect(JSON.stringify(piece.records).length).toBeLessThanOrEqual(20_000 + 1_100);
    // Far below the bound: whole, whatever the rows.
    expect(rechunk({ stream: 's', seq: 0, records: big }, { maxRows: 1000, maxBytes: 64 << 20 }, () => n++)).toHaveLength(1);
  });
  it('estimates record size from a sample', () => {
    expect(estimateRecordBytes([])).toBe(0);
    expect(estimateRecordBytes(Array.from({ length: 1000 }, () => ({ a: 'xxxx' })))).toBe(12);
  });
});

describe('acquireOutputLock', () => {
  it('one owner at a time; a lock left by a dead process is taken over', async () => {
    const { acquireOutputLock, LOCK_FILE } = await import('../../src/runtime/output-lock.js');
    const { hostname } = await import('node:os');
    const dir = await tmp();
    const owner = { runId: 'r1', pipeline: 'p', now: new Date('2026-11-22T00:00:00Z') };
    const lock = await acquireOutputLock(dir, owner);
    // Held by a live process (our parent): refused, naming the holder.
    await writeFile(join(dir, LOCK_FILE), JSON.stringify({ pid: process.ppid, host: hostname(), runId: 'other', pipeline: 'q' }));
    await expect(acquireOutputLock(dir, owner)).rejects.toMatchObject({ code: 'QL_OUTPUT_LOCKED', message: expect.stringContaining('in use by run other of pipeline q') });
    // A pid that cannot exist: stale, taken over.
    await writeFile(join(dir, LOCK_FILE), JSON.stringify({ pid: 2 ** 22 + 12345, host: hostname(), runId: 'dead', pipeline: 'q' }));
    const again = await acquireOutputLock(dir, owner);
    expect(JSON.parse(await readFile(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid, runId: 'r1' });
    await again.release();
    await lock.release();
    expect(await readdir(dir)).toEqual([]);
  });
});
