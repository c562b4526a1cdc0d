import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Rejected } from '../../src/core/component.js';
import { RejectedWriter } from '../../src/lake/rejected-writer.js';
import { runContext, tempDir } from '../sinks/helpers.js';
import { readText, useTestLakes } from './test-lakes.js';

const rejected = (value: string): Rejected => ({
  stream: 'kline/BTCUSDT/1m',
  code: 'QL_DECIMAL_MALFORMED',
  field: 'close_price',
  value,
  reason: `QL_DECIMAL_MALFORMED: field close_price: ${JSON.stringify(value)} is not a decimal (no integer digits)`,
  record: { code: 'BTCUSDT', bar: { close_price: value } },
});

describe('rejected writer (onReject: divert)', () => {
  it('stages lines and makes them visible at commit under _rejected/<dataset>/date=<UTC date>/', async () => {
    const out = await tempDir();
    const ctx = runContext('r1'); // clock: 2026-11-21T14:30Z
    const w = new RejectedWriter(out);
    await w.write('kline', [rejected('x1')], ctx);
    expect(await readdir(out)).toEqual(['_quotelake']);
    const files = await w.commit(ctx);
    expect(files).toEqual([{ path: '_rejected/kline/date=2026-11-21/rejected-r1.ndjson', rows: 1, bytes: expect.any(Number) }]);
    await w.write('kline', [rejected('x2'), rejected('.5')], ctx);
    await w.commit(ctx);
    expect(await readdir(out)).toEqual(['_rejected']);
    const lines = (await readFile(join(out, '_rejected/kline/date=2026-11-21/rejected-r1.ndjson'), 'utf8')).trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.value)).toEqual(['x1', 'x2', '.5']);
    expect(lines[0]).toEqual({ stream: 'kline/BTCUSDT/1m', code: 'QL_DECIMAL_MALFORMED', field: 'close_price', value: 'x1', reason: 'QL_DECIMAL_MALFORMED: field close_price: "x1" is not a decimal (no integer digits)', record: { code: 'BTCUSDT', bar: { close_price: 'x1' } } });
  });

  it('abort leaves nothing; recover deletes what a crashed run staged', async () => {
    const out = await tempDir();
    const ctx = runContext('r1');
    const w = new RejectedWriter(out);
    await w.write('../trade', [rejected('x')], ctx);
    await w.abort(ctx);
    expect(await readdir(out)).toEqual([]);
    await new RejectedWriter(out).write('trade', [rejected('y')], runContext('crashed'));
    await new RejectedWriter(out).recover(runContext('r2'));
    expect(await readdir(out)).toEqual([]);
  });
});

describe('rejected writer on an object store (s3rver)', () => {
  const lakes = useTestLakes('s3');

  it('commits twice into one object (no append on S3: live lines + staged chunks, published whole); abort and recover leave nothing', async () => {
    const out = await lakes.fresh();
    const ctx = runContext('r1');
    const w = new RejectedWriter(lakes.storage(out)!);
    await w.write('kline', [rejected('x1')], ctx);
    expect((await lakes.keys(out)).every((k) => k.startsWith('_quotelake/staging/r1/_rejected/'))).toBe(true);
    await w.commit(ctx);
    await w.write('kline', [rejected('x2'), rejected('.5')], ctx);
    const files = await w.commit(ctx);
    expect(files.map((f) => [f.path, f.rows])).toEqual([['_rejected/kline/date=2026-11-21/rejected-r1.ndjson', 2]]);
    expect(await lakes.keys(out)).toEqual(['_rejected/kline/date=2026-11-21/rejected-r1.ndjson']);
    const lines = (await readText(lakes, out, '_rejected/kline/date=2026-11-21/rejected-r1.ndjson')).trimEnd().split('\n').map((l) => JSON.parse(l) as { value: string });
    expect(lines.map((l) => l.value)).toEqual(['x1', 'x2', '.5']);
    const other = await lakes.fresh();
    const a = new RejectedWriter(lakes.storage(other)!);
    await a.write('trade', [rejected('y')], runContext('r2'));
    await a.abort(runContext('r2'));
    await new RejectedWriter(lakes.storage(other)!).write('trade', [rejected('y')], runContext('crashed'));
    await new RejectedWriter(lakes.storage(other)!).recover(runContext('r3'));
    expect(await lakes.keys(other)).toEqual([]);
  });
});
