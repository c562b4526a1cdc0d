import { spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Sink } from '../../src/core/component.js';
import { OutputClosedError } from '../../src/core/errors.js';
import { ndjsonSink, NdjsonSink } from '../../src/sinks/ndjson/index.js';
import type { LakeStorage } from '../../src/lake/storage/lake-storage.js';
import { depthRows, haltRows, klineRows, rawKline, SHIB_CLOSE, T0, BIG_TURNOVER, tradeRows } from './fixtures.js';
import { duck, runContext, sinkEnv, tempDir } from './helpers.js';

function collect(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

describe('ndjson sink', () => {
  it('examples parse; unknown keys are refused', () => {
    for (const e of ndjsonSink.examples) expect(ndjsonSink.configSchema.safeParse(e).success).toBe(true);
    expect(ndjsonSink.configSchema.safeParse({ file: 'x' }).success).toBe(false);
  });

  it('writes one object per line: decimals as exact strings, instants ISO-8601 UTC with ms', async () => {
    const { stream, text } = collect();
    const sink = new NdjsonSink('kline', { kind: 'stream', stream });
    const ctx = runContext();
    const rows = klineRows([rawKline('SHIBUSDT', '1m', T0, SHIB_CLOSE, false, BIG_TURNOVER)]);
    await sink.write({ stream: 'k', seq: 1, records: rows }, ctx);
    expect((await sink.commit(ctx)).rows).toBe(1);
    const lines = text().trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { code: 'SHIBUSDT', interval: '1m', ts: '2025-11-19T07:00:00.000Z', open: '0.0000187123456', high: '0.0000187123456', low: '0.0000187123456', close: '0.0000187123456', volume: '12.8451', turnover: BIG_TURNOVER, final: false },
    ]);
    expect(lines[0]).not.toMatch(/e[+-]?\d/);
  });

  it('round-trips depth and halt rows (nulls kept)', async () => {
    const { stream, text } = collect();
    const ctx = runContext();
    const depth = new NdjsonSink('depth', { kind: 'stream', stream });
    await depth.write({ stream: 'd', seq: 1, records: depthRows([{ tick: { code: 'US500', seq: '1', tick_time: '1677830357301', bids: [], asks: [{ price: '4002.25' }] }, fetchedAtMs: 1677830358000 }]) }, ctx);
    const halt = new NdjsonSink('halt', { kind: 'stream', stream });
    await halt.write({ stream: 'h', seq: 1, records: haltRows([{ exchange: 'sse', record: { symbol: '688001', haltDate: '2024-01-10', publishDate: '2024-01-09 20:15:00' }, fetchedAtMs: 0 }]) }, ctx);
    const [d, h] = text().trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(d).toEqual({ code: 'US500', ts: '2023-03-03T07:59:17.301Z', seq: '1', fetched_at: '2023-03-03T07:59:18.000Z', bids: [], asks: [{ price: '4002.25', volume: null }] });
    expect(h).toMatchObject({ exchange: 'sse', symbol: '688001', halt_at: null, halt_local: '2024-01-10', published_at: '2024-01-09T12:15:00.000Z', published_local: '2024-01-09 20:15:00', name: null });
  });

  it('waits for drain under backpressure and loses nothing', async () => {
    let drained = 0;
    const received: string[] = [];
    const slow = new Writable({
      highWaterMark: 256,
      write(chunk: Buffer, _enc, cb) {
        received.push(chunk.toString());
        setImmediate(cb);
      },
    });
    slow.on('drain', () => drained++);
    const sink = new NdjsonSink('kline', { kind: 'stream', stream: slow }, 512);
    const ctx = runContext();
    const rows = klineRows(Array.from({ length: 200 }, (_, i) => rawKline('BTCUSDT', '1m', T0 + 60 * i, `${i}.5`)));
    await sink.write({ stream: 'k', seq: 1, records: rows }, ctx);
    await new Promise((r) => setImmediate(r));
    expect(drained).toBeGreaterThan(0);
    const lines = received.join('').trimEnd().split('\n');
    expect(lines).toHaveLength(200);
    expect(JSON.parse(lines[199]!).close).toBe('199.5');
  });

  it('a file target appears only at commit, and abort leaves nothing', async () => {
    const out = await tempDir();
    const def = ndjsonSink;
    const sink = def.create(def.configSchema.parse({ path: 'exports/{dataset}.ndjson' }), sinkEnv(out, 'kline')) as Sink<object>;
    const ctx = runContext('r1');
    await sink.write({ stream: 'k', seq: 1, records: klineRows([rawKline('A', '1m', T0, '1')]) }, ctx);
    // Uncommitted rows are held in memory: nothing on disk yet.
    expect(await readdir(out)).toEqual([]);
    await sink.commit(ctx);
    expect(await readdir(join(out, 'exports'))).toEqual(['kline.ndjson']);
    await sink.write({ stream: 'k', seq: 2, records: klineRows([rawKline('A', '1m', T0 + 60, '2')]) }, ctx);
    await sink.commit(ctx);
    expect((await readFile(join(out, 'exports/kline.ndjson'), 'utf8')).trimEnd().split('\n').map((l) => JSON.parse(l).close)).toEqual(['1', '2']);
    await sink.write({ stream: 'k', seq: 3, records: klineRows([rawKline('A', '1m', T0 + 120, '3')]) }, ctx);
    await sink.abort(ctx);
    expect(await readdir(join(out, 'exports'))).toEqual(['kline.ndjson']);
    expect((await readFile(join(out, 'exports/kline.ndjson'), 'utf8')).trimEnd().split('\n')).toHaveLength(2);
  });

  /** One run of a file sink: writes the batches, commits after each, closes. */
  async function fileRun(out: string, runId: string, batches: object[][], config: Record<string, unknown> = {}, dataset = 'kline'): Promise<void> {
    const sink = ndjsonSink.create(ndjsonSink.configSchema.parse({ path: 'exports/{dataset}.ndjson', ...config }), sinkEnv(out, dataset)) as Sink<object>;
    const ctx = runContext(runId);
    await sink.recover?.(ctx);
    for (const [i, records] of batches.entries()) {
      await sink.write({ stream: 'k', seq: i, records }, ctx);
      await sink.commit(ctx);
    }
    await sink.close();
  }

  const fileLines = async (out: string, dataset = 'kline') =>
    (await readFile(join(out, `exports/${dataset}.ndjson`), 'utf8')).trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

  it('a file accumulates: two runs in a row keep every row of both, values unchanged', async () => {
    const out = await tempDir();
    await fileRun(out, 'r1', [klineRows([rawKline('A', '1m', T0, '1.5'), rawKline('B', '1m', T0, SHIB_CLOSE, true, BIG_TURNOVER)])]);
    await fileRun(out, 'r2', [klineRows([rawKline('A', '1m', T0 + 60, '2.5')]), klineRows([rawKline('A', '1h', T0, '9')])]);
    const got = await fileLines(out);
    expect(got.map((r) => [r.code, r.interval, r.ts, r.close, r.turnover])).toEqual([
      ['A', '1m', '2025-11-19T07:00:00.000Z', '1.5', '1175337.4468315'],
      ['B', '1m', '2025-11-19T07:00:00.000Z', SHIB_CLOSE, BIG_TURNOVER],
      ['A', '1m', '2025-11-19T07:01:00.000Z', '2.5', '1175337.4468315'],
      // Same code and instant, another interval: another key.
      ['A', '1h', '2025-11-19T07:00:00.000Z', '9', '1175337.4468315'],
    ]);
  });

  it('a forming bar that becomes final replaces its line (same run or next run); a final one is never replaced by a forming one', async () => {
    const out = await tempDir();
    await fileRun(out, 'r1', [klineRows([rawKline('A', '1m', T0, '1'), rawKline('A', '1m', T0 + 60, '2.25', false)])]);
    expect((await fileLines(out)).map((r) => [r.close, r.final])).toEqual([['1', true], ['2.25', false]]);
    await fileRun(out, 'r2', [
      klineRows([rawKline('A', '1m', T0 + 60, '2.5'), rawKline('A', '1m', T0 + 120, '3.25', false)]),
      klineRows([rawKline('A', '1m', T0 + 120, '3.5'), rawKline('A', '1m', T0 + 60, '2.75', false)]),
    ]);
    expect((await fileLines(out)).map((r) => [r.ts, r.close, r.final])).toEqual([
      ['2025-11-19T07:00:00.000Z', '1', true],
      ['2025-11-19T07:01:00.000Z', '2.5', true],
      ['2025-11-19T07:02:00.000Z', '3.5', true],
    ]);
  });

  it('raw records (no transform) and other datasets merge by their own key', async () => {
    const out = await tempDir();
    const raw = (close: string, final: boolean) => ({ ...rawKline('A', '1m', T0, close, final), source: '/kline' });
    await fileRun(out, 'r1', [[raw('1.25', false)]]);
    await fileRun(out, 'r2', [[raw('1.5', true), { ...rawKline('A', '1m', T0 + 60, '2'), source: '/kline' }]]);
    expect((await fileLines(out)).map((r) => (r.bar as { close_price: string }).close_price)).toEqual(['1.5', '2']);
    const trade = (seq: string, price: string) => ({ tick: { code: 'A', seq, tick_time: '1700000000000', price, volume: '1', turnover: '1', trade_direction: 1 as const }, fetchedAtMs: 0 });
    await fileRun(out, 'r3', [tradeRows([trade('1', '10'), trade('2', '11')])], {}, 'trade');
    await fileRun(out, 'r4', [tradeRows([trade('2', '11'), trade('3', '12')])], {}, 'trade');
    expect((await fileLines(out, 'trade')).map((r) => [r.seq, r.price])).toEqual([['1', '10'], ['2', '11'], ['3', '12']]);
  });

  it('keepState false on a file: each run rewrites it with exactly its own rows', async () => {
    const out = await tempDir();
    await fileRun(out, 'r1', [klineRows([rawKline('A', '1m', T0, '1')])], { keepState: false });
    await fileRun(out, 'r2', [klineRows([rawKline('A', '1m', T0 + 60, '2')]), klineRows([rawKline('A', '1m', T0 + 120, '3')])], { keepState: false });
    expect((await fileLines(out)).map((r) => r.close)).toEqual(['2', '3']);
    expect(ndjsonSink.keepsState?.(ndjsonSink.configSchema.parse({ path: 'x.ndjson', keepState: false }))).toBe(false);
    expect(ndjsonSink.keepsState?.(ndjsonSink.configSchema.parse({ path: 'x.ndjson' }))).toBe(true);
    expect(ndjsonSink.keepsState?.(ndjsonSink.configSchema.parse({}))).toBe(false);
    expect(ndjsonSink.keepsState?.(ndjsonSink.configSchema.parse({ keepState: true }))).toBe(true);
  });

  it('recover() deletes the temp files a killed run left beside the file, and nothing else', async () => {
    const out = await tempDir();
    await fileRun(out, 'r1', [klineRows([rawKline('A', '1m', T0, '1')])]);
    await writeFile(join(out, 'exports/.kline.ndjson.tmp-r0'), '{"code":"A","half');
    // The visible name earlier versions gave their temp files.
    await writeFile(join(out, 'exports/kline.ndjson.tmp-r00'), '{"code":"A","half');
    await writeFile(join(out, 'exports/.other.ndjson.tmp-r0'), 'not ours');
    await fileRun(out, 'r2', []);
    expect((await readdir(join(out, 'exports'))).sort()).toEqual(['.other.ndjson.tmp-r0', 'kline.ndjson']);
    expect((await fileLines(out)).map((r) => r.close)).toEqual(['1']);
  });

  it('recover() refuses, before any row, a folder where the file goes or a file where its folder goes', async () => {
    const out = await tempDir();
    await mkdir(join(out, 'exports/kline.ndjson'), { recursive: true });
    await expect(fileRun(out, 'r1', [])).rejects.toThrow(`ndjson: sink path exports/kline.ndjson is a folder (${join(out, 'exports/kline.ndjson')}): give the path of a file, or move the folder away`);
    const other = await tempDir();
    await writeFile(join(other, 'a'), 'mine');
    await expect(fileRun(other, 'r1', [], { path: 'a/b/{dataset}.ndjson' })).rejects.toThrow(`ndjson: sink path a/b/kline.ndjson goes through a, which is a file (${join(other, 'a')}): choose another path, or move the file away`);
    expect(await readFile(join(other, 'a'), 'utf8')).toBe('mine');
  });

  it('a file at the path with a line that is not a JSON object stops the run at recover(), before any row, naming the line; the file is left as it was', async () => {
    const out = await tempDir();
    await fileRun(out, 'r1', [klineRows([rawKline('A', '1m', T0, '1')])]);
    const path = join(out, 'exports/kline.ndjson');
    const first = await readFile(path, 'utf8');
    for (const [bad, reason] of [
      ['{"code":', 'JSON'],
      ['null', 'null is JSON but no object'],
      ['[1,2]', '[1,2] is JSON but no object'],
    ] as const) {
      const before = `${first}${bad}\n`;
      await writeFile(path, before);
      const sink = ndjsonSink.create(ndjsonSink.configSchema.parse({ path: 'exports/{dataset}.ndjson' }), sinkEnv(out, 'kline')) as Sink<object>;
      const error = await sink.recover!(runContext('r2')).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'QL_CONFIG', message: expect.stringMatching(/^ndjson: sink path exports\/kline\.ndjson: line 2 is not a JSON object \(.+\): the file must hold only lines runs of its dataset wrote; fix or delete that line, or move the file away \(each dataset in its own file: \{dataset\} in the path\)$/) });
      expect((error as Error).message).toContain(reason);
      expect(await readFile(path, 'utf8')).toBe(before);
    }
    expect(await readdir(join(out, 'exports'))).toEqual(['kline.ndjson']);
    // Without state the file is rewritten with the run's window, whatever it held.
    await fileRun(out, 'r3', [klineRows([rawKline('A', '1m', T0 + 60, '2')])], { keepState: false });
    expect((await fileLines(out)).map((r) => r.close)).toEqual(['2']);
  });

  it('two pipelines of different datasets given one path: the second stops at recover(), naming the first row of the other dataset', async () => {
    const out = await tempDir();
    const trade = { tick: { code: 'A', seq: '7', tick_time: '1700000000000', price: '10', volume: '1', turnover: '10', trade_direction: 1 as const }, fetchedAtMs: 0 };
    const depth = { tick: { code: 'A', seq: '7', tick_time: '1700000000000', bids: [{ price: '9', volume: '1' }], asks: [] }, fetchedAtMs: 0 };
    const shared = { path: 'exports/all.ndjson' };
    const recoverAs = async (dataset: string) => {
      const sink = ndjsonSink.create(ndjsonSink.configSchema.parse(shared), sinkEnv(out, dataset)) as Sink<object>;
      return sink.recover!(runContext('r9')).catch((e: unknown) => e);
    };
    // Typed rows, then raw records (no transform): each shape names its dataset.
    for (const [first, records, other] of [
      ['trade', tradeRows([trade]), 'depth'],
      ['depth', depthRows([depth]), 'trade'],
      ['kline', klineRows([rawKline('A', '1m', T0, '1')]), 'halt'],
      ['depth', [depth], 'trade'],
      ['trade', [trade], 'depth'],
      ['kline', [{ ...rawKline('A', '1m', T0, '1'), source: '/kline' }], 'trade'],
    ] as const) {
      await writeFile(join(out, 'exports/all.ndjson'), '').catch(() => undefined);
      await fileRun(out, `w-${first}`, [records as object[]], shared, first);
      const held = await readFile(join(out, 'exports/all.ndjson'), 'utf8');
      expect(await recoverAs(other)).toMatchObject({
        code: 'QL_CONFIG',
        message: expect.stringContaining(`ndjson: sink path exports/all.ndjson: line 1 holds a ${first} row, and this file takes ${other} rows: `),
      });
      expect(await readFile(join(out, 'exports/all.ndjson'), 'utf8')).toBe(held);
      // Its own dataset reads it back.
      expect(await recoverAs(first)).toBeUndefined();
    }
  });

  it('a file that recover() read is the one the first commit builds on; a run with no rows still creates a missing file', async () => {
    const out = await tempDir();
    const empty = ndjsonSink.create(ndjsonSink.configSchema.parse({ path: 'exports/{dataset}.ndjson' }), sinkEnv(out, 'kline')) as Sink<object>;
    await empty.recover!(runContext('r1'));
    await empty.commit(runContext('r1'));
    expect(await readFile(join(out, 'exports/kline.ndjson'), 'utf8')).toBe('');
    await fileRun(out, 'r2', [klineRows([rawKline('A', '1m', T0, '1')])]);
    await fileRun(out, 'r3', [klineRows([rawKline('A', '1m', T0 + 60, '2')]), klineRows([rawKline('A', '1m', T0 + 120, '3')])]);
    expect((await fileLines(out)).map((r) => r.close)).toEqual(['1', '2', '3']);
  });

  it('DuckDB reads the file back: decimals cast to DECIMAL(38,18) equal the source strings', async () => {
    const out = await tempDir();
    const sink = ndjsonSink.create(ndjsonSink.configSchema.parse({ path: 'k.ndjson' }), sinkEnv(out, 'kline')) as Sink<object>;
    const ctx = runContext('r1');
    await sink.write({ stream: 'k', seq: 1, records: klineRows([rawKline('SHIBUSDT', '1m', T0, '0.000018712345600000', true, BIG_TURNOVER)]) }, ctx);
    await sink.commit(ctx);
    const got = await duck(
      `select "close"::DECIMAL(38,18)::varchar c, turnover::DECIMAL(38,18)::varchar t, ts::TIMESTAMPTZ::varchar ts from read_json('${join(out, 'k.ndjson')}', columns={close:'VARCHAR', turnover:'VARCHAR', ts:'VARCHAR'})`,
    );
    expect(got).toEqual([{ c: '0.000018712345600000', t: BIG_TURNOVER, ts: '2025-11-19 07:00:00+00' }]);
  });

  it('a closed stream with rows still to write throws OutputClosedError with their count', async () => {
    const { stream, text } = collect();
    const sink = new NdjsonSink('kline', { kind: 'stream', stream }, 64);
    expect(sink.streaming).toBe(true);
    const ctx = runContext();
    const rows = klineRows(Array.from({ length: 5 }, (_, i) => rawKline('BTCUSDT', '1m', T0 + 60 * i, `${i}`)));
    await sink.write({ stream: 'k', seq: 1, records: rows }, ctx);
    // The reader leaves after everything was written: nothing is lost, nothing is thrown.
    stream.destroy();
    await sink.write({ stream: 'k', seq: 2, records: [] }, ctx);
    expect((await sink.commit(ctx)).rows).toBe(5);
    const error = await sink.write({ stream: 'k', seq: 3, records: rows }, ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutputClosedError);
    expect((error as OutputClosedError).rowsUnwritten).toBe(5);
    expect(text().trimEnd().split('\n')).toHaveLength(5);
  });

  it('many sinks on one stream (a worker\'s slices) leave one error listener, and a late error stays quiet', async () => {
    const { stream, text } = collect();
    const before = stream.listenerCount('error');
    const ctx = runContext();
    for (let i = 0; i < 20; i++) {
      const sink = new NdjsonSink('kline', { kind: 'stream', stream });
      await sink.write({ stream: 'k', seq: 1, records: klineRows([rawKline('BTCUSDT', '1m', T0 + 60 * i, `${i}`)]) }, ctx);
      await sink.commit(ctx);
      await sink.close();
    }
    expect(stream.listenerCount('error')).toBe(before + 1);
    expect(text().trimEnd().split('\n')).toHaveLength(20);
    // With no listener this would be an uncaught error.
    stream.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
  });

  it('EPIPE (`| head -1`): write throws OutputClosedError, and nothing reaches stderr by itself', async () => {
    // The child runs the built sink (dist/, built by the global setup), as the CLI would.
    const dir = await tempDir('ql-epipe-');
    const built = pathToFileURL(join(__dirname, '../../dist/sinks/ndjson/ndjson-sink.js')).href;
    await writeFile(join(dir, 'package.json'), '{"type":"module"}');
    await writeFile(
      join(dir, 'child.js'),
      `import { NdjsonSink } from '${built}';
const sink = new NdjsonSink('trade', { kind: 'stream', stream: process.stdout }, 4096);
const ctx = { runId: 'r', events: { rows() {} } };
const rows = Array.from({ length: 1000 }, (_, i) => ({ code: 'BTCUSDT', ts: 1700000000000 + i, seq: String(i), price: '1.5', volume: '2', turnover: '3', direction: 1, fetched_at: 1700000000000 }));
let batches = 0;
let error;
try {
  while (batches < 100000) await sink.write({ stream: 't', seq: ++batches, records: rows }, ctx);
} catch (e) {
  error = e;
}
await sink.close();
const ok = error?.code === 'QL_OUTPUT_CLOSED' && error.rowsUnwritten > 0 && error.rowsUnwritten <= 1000 && sink.downstreamClosed;
process.stderr.write(ok ? '' : 'unexpected: ' + String(error) + '\\n');
`,
    );
    const r = spawnSync('bash', ['-c', `set -o pipefail; node child.js | head -1`], { cwd: dir, encoding: 'utf8', timeout: 20_000 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toEqual({ code: 'BTCUSDT', ts: '2023-11-14T22:13:20.000Z', seq: '0', price: '1.5', volume: '2', turnover: '3', direction: 1, fetched_at: '2023-11-14T22:13:20.000Z' });
  });
});

describe('ndjson sink on an object store', () => {
  it('a file target is refused with a clear message (no append or rename on S3); stdout still works', () => {
    const remote = { root: 's3://lake/x', localPath: () => undefined } as unknown as LakeStorage;
    const env = { ...sinkEnv('s3://lake/x', 'kline'), storage: remote };
    expect(() => ndjsonSink.create(ndjsonSink.configSchema.parse({ path: 'exports/{dataset}.ndjson' }), env)).toThrow(
      'ndjson: sink path "exports/kline.ndjson" is a file, which an s3:// output cannot hold: on an object store use the parquet or arrow sink, or path: stdout (s3://lake/x)',
    );
    expect(ndjsonSink.create(ndjsonSink.configSchema.parse({ path: 'stdout' }), env)).toBeInstanceOf(NdjsonSink);
  });
});
