/**
 * Random Arrow tables for the codec fuzz tests: every column type quotelake writes, at its
 * extremes, in runs and whole columns of one value, cut into several record batches.
 */
import { Bool, Decimal, Field, Int8, makeData, RecordBatch, Schema, Struct, Table, TimeUnit, Timestamp, Utf8, type Data, type DataType } from 'apache-arrow';
import fc from 'fast-check';

export const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export type Column =
  | { readonly kind: 'utf8' }
  | { readonly kind: 'bool' }
  | { readonly kind: 'int8' }
  | { readonly kind: 'ts' }
  | { readonly kind: 'dec'; readonly precision: number; readonly scale: number };

/** Every cell as an exact value: string, boolean, number (int8) or bigint (instants, unscaled decimals). */
export type Cell = string | boolean | number | bigint;

/** A small deterministic generator for cell values (fast-check picks its seed and the shapes). */
export function prng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

const STRINGS = ['', 'a', 'A', 'AAPL.US', 'é', '日本', 'z', '\u0001', '~~~', 'ÿ', '😀', 'zz'];

export function cellsOf(col: Column, n: number, rnd: () => number, mode: number): Cell[] {
  const out: Cell[] = [];
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  for (let i = 0; i < n; i++) {
    // Runs of one value (what the writer's statistics shortcut is built for), and whole columns of one value.
    if (i > 0 && (mode === 0 || rnd() < 0.4)) {
      out.push(out[i - 1]!);
      continue;
    }
    switch (col.kind) {
      case 'utf8':
        out.push(rnd() < 0.7 ? pick(STRINGS) : Array.from({ length: Math.floor(rnd() * 6) }, () => String.fromCharCode(32 + Math.floor(rnd() * 95))).join(''));
        break;
      case 'bool':
        out.push(mode === 1 ? true : rnd() < 0.5);
        break;
      case 'int8':
        out.push(rnd() < 0.4 ? pick([-128, 127, 0, -1, 1]) : Math.floor(rnd() * 256) - 128);
        break;
      case 'ts': {
        const r = rnd();
        out.push(r < 0.3 ? pick([-MAX_SAFE, MAX_SAFE, 0n, -1n, 1n]) : BigInt(Math.floor((rnd() * 2 - 1) * (r < 0.6 ? Number.MAX_SAFE_INTEGER : 2e12))));
        break;
      }
      case 'dec': {
        const max = 10n ** BigInt(col.precision) - 1n;
        if (rnd() < 0.35) {
          out.push(pick([max, -max, 0n, 1n, -1n]));
          break;
        }
        const digits = 1 + Math.floor(rnd() * col.precision);
        let v = 0n;
        for (let d = 0; d < digits; d++) v = v * 10n + BigInt(Math.floor(rnd() * 10));
        out.push(rnd() < 0.5 ? -v : v);
        break;
      }
    }
  }
  return out;
}

export function arrowType(col: Column): DataType {
  switch (col.kind) {
    case 'utf8':
      return new Utf8();
    case 'bool':
      return new Bool();
    case 'int8':
      return new Int8();
    case 'ts':
      return new Timestamp(TimeUnit.MILLISECOND, 'UTC');
    case 'dec':
      return new Decimal(col.scale, col.precision, 128);
  }
}

export function dataOf(col: Column, cells: readonly Cell[]): Data {
  const n = cells.length;
  const type = arrowType(col);
  switch (col.kind) {
    case 'utf8': {
      const bytes = cells.map((c) => Buffer.from(c as string, 'utf8'));
      const offsets = new Int32Array(n + 1);
      for (let i = 0; i < n; i++) offsets[i + 1] = offsets[i]! + bytes[i]!.length;
      return makeData({ type: type as Utf8, length: n, nullCount: 0, data: new Uint8Array(Buffer.concat(bytes)), valueOffsets: offsets });
    }
    case 'bool': {
      const bits = new Uint8Array((n + 7) >> 3);
      cells.forEach((c, i) => {
        if (c) bits[i >> 3]! |= 1 << (i & 7);
      });
      return makeData({ type: type as Bool, length: n, nullCount: 0, data: bits });
    }
    case 'int8':
      return makeData({ type: type as Int8, length: n, nullCount: 0, data: Int8Array.from(cells as number[]) });
    case 'ts':
      return makeData({ type: type as Timestamp, length: n, nullCount: 0, data: BigInt64Array.from(cells as bigint[]) });
    case 'dec': {
      const words = new Uint32Array(4 * n);
      cells.forEach((c, i) => {
        const u = BigInt.asUintN(128, c as bigint);
        for (let w = 0; w < 4; w++) words[4 * i + w] = Number((u >> BigInt(32 * w)) & 0xffffffffn);
      });
      return makeData({ type: type as Decimal, length: n, nullCount: 0, data: words });
    }
  }
}

export interface Case {
  readonly columns: Column[];
  readonly rows: number;
  readonly cuts: number[];
  readonly rowGroupRows: number;
  readonly pageRows: number;
  readonly seed: number;
  readonly mode: number;
}

const decimalOf = (min: number, max: number) =>
  fc.integer({ min, max }).chain((precision) => fc.integer({ min: 0, max: precision }).map((scale): Column => ({ kind: 'dec', precision, scale })));

export const caseArb: fc.Arbitrary<Case> = fc.record({
  columns: fc.tuple(decimalOf(1, 9), decimalOf(10, 18), decimalOf(19, 28), decimalOf(29, 38)).map(([d32, d64, narrow, wide]): Column[] => [
    { kind: 'utf8' },
    { kind: 'bool' },
    { kind: 'int8' },
    { kind: 'ts' },
    d32,
    d64,
    narrow,
    wide,
  ]),
  rows: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 8 }), fc.integer({ min: 9, max: 3000 })),
  cuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 }),
  rowGroupRows: fc.oneof(fc.integer({ min: 1, max: 16 }), fc.integer({ min: 17, max: 4000 })),
  pageRows: fc.oneof(fc.integer({ min: 1, max: 16 }), fc.integer({ min: 17, max: 40000 })),
  seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  // 0: every column one value; 1: booleans all true; else random with runs.
  mode: fc.integer({ min: 0, max: 6 }),
});

export const name = (c: number) => `c${c}`;

export function tableOf(columns: readonly Column[], cells: readonly Cell[][], rows: number, cuts: readonly number[]): Table {
  const schema = new Schema(columns.map((col, c) => new Field(name(c), arrowType(col), false)));
  const bounds = [...new Set([0, ...cuts.map((x) => Math.floor(x * rows)), rows])].sort((a, b) => a - b);
  const batches: RecordBatch[] = [];
  for (let b = 0; b + 1 < bounds.length || batches.length === 0; b++) {
    const from = bounds[b] ?? 0;
    const to = bounds[b + 1] ?? rows;
    const children = columns.map((col, c) => dataOf(col, cells[c]!.slice(from, to)));
    batches.push(new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: to - from, nullCount: 0, children })));
    if (bounds.length < 2) break;
  }
  return new Table(schema, batches);
}
