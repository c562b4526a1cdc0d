import { spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { Sink } from '../../src/core/component.js';
import { OutputClosedError } from '../../src/core/errors.js';
import { ndjsonSink, NdjsonSink } from '../../src/sinks/ndjson/index.js';
import { depthRows, haltRows, klineRows, rawKline, SHIB_CLOSE, T0, BIG_TURNOVER } from './fixtures.js';
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
      { code: 'SHIBUSDT', interval: '1m', ts: '2025-11-19T07:00:00.000Z', open: '91532.01', high: '91560', low: '91480.11', close: '0.0000187123456', volume: '12.8451', turnover: BIG_TURNOVER, final: false },
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
    expect(await readdir(join(out, 'exports'))).toEqual(['kline.ndjson.tmp-r1']);
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

  it('EPIPE (`| head -1`): write throws OutputClosedError, and nothing reaches stderr by itself', async () => {
    // Compile the sink's sources to plain JS for a child process (only node builtins are needed).
    const dir = await tempDir('ql-epipe-');
    const root = join(__dirname, '../..');
    const sources = ['src/core', 'src/sinks/ndjson', 'src/sinks/shared/partition-path.ts'];
    for (const s of sources) {
      const abs = join(root, s);
      const list = s.endsWith('.ts') ? [abs] : (await readdir(abs)).filter((f) => f.endsWith('.ts')).map((f) => join(abs, f));
      for (const file of list) {
        const js = ts.transpileModule(await readFile(file, 'utf8'), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
        const target = join(dir, relative(root, file)).replace(/\.ts$/, '.js');
        await mkdir(dirname(target), { recursive: true });
        await writeFile(target, js);
      }
    }
    await writeFile(join(dir, 'package.json'), '{"type":"module"}');
    await writeFile(
      join(dir, 'child.js'),
      `import { NdjsonSink } from './src/sinks/ndjson/ndjson-sink.js';
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
