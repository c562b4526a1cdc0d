/** Milliseconds ↔ microseconds of a table's instants (a Delta table's files): exact, nulls kept, slices honoured. */
import { Table, TimestampMillisecond, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { toMicros, toMillis } from '../../src/lake/parquet/timestamp-units.js';

const MAX_SAFE_MS = Math.floor(Number.MAX_SAFE_INTEGER / 1000);

describe('timestamp units', () => {
  it('×1000 exactly on both sides of zero and of the fast path, and back', () => {
    const ms = [0, 1, -1, 1_700_000_000_123, -86_400_001, 2 ** 32 - 1, 2 ** 32, -(2 ** 32), MAX_SAFE_MS, -MAX_SAFE_MS, MAX_SAFE_MS + 1, 8_000_000_000_000_000, -9_000_000_000_000_000];
    const table = new Table({ ts: vectorFromArray(ms, new TimestampMillisecond('UTC')) });
    const us = toMicros(table);
    expect(String(us.schema.fields[0]!.type)).toBe('Timestamp<MICROSECOND, UTC>');
    expect([...(us.getChild('ts')!.data[0]!.values as BigInt64Array)]).toEqual(ms.map((v) => BigInt(v) * 1000n));
    const back = toMillis(us);
    expect(String(back.schema.fields[0]!.type)).toBe('Timestamp<MILLISECOND, UTC>');
    expect([...(back.getChild('ts')!.data[0]!.values as BigInt64Array)]).toEqual(ms.map((v) => BigInt(v)));
  });

  it('keeps nulls and a slice, and leaves a table without millisecond instants as it is', () => {
    const table = new Table({ ts: vectorFromArray([5, null, 7, null, 9], new TimestampMillisecond('UTC')) }).slice(1, 4);
    const us = toMicros(table);
    expect(us.getChild('ts')!.toArray().length).toBe(3);
    expect([...us.getChild('ts')!].map((v) => (v === null ? null : Number(v)))).toEqual([null, 7, null]);
    expect(toMicros(us)).toBe(us);
    expect(toMillis(table)).toBe(table);
  });
});
