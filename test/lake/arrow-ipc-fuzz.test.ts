/**
 * The Arrow sink's encoder over the same random tables as the Parquet writer's fuzz test: written
 * as IPC files and read back with two independent readers, apache-arrow and flechette (its own
 * IPC decoder, not built on apache-arrow), every value identical (decimals as their exact 128-bit
 * integers), and a decimal wider than its column's precision refused before it is written. DuckDB
 * reads Arrow IPC only through an extension that cannot be installed offline, so flechette stands
 * in for it. 20 cases from a fixed seed; QL_FUZZ_RUNS and QL_FUZZ_SEED as for the Parquet test.
 */
import { tableFromIPC as flechetteFromIPC } from '@uwdata/flechette';
import { tableFromIPC } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wordsToBigInt } from '../../src/core/decimal.js';
import { arrowEncoder } from '../../src/lake/arrow/arrow-encoder.js';
import { fileProvenance } from '../../src/lake/file-provenance.js';
import { fileMetadataOf } from './random-metadata.js';
import { caseArb, cellsOf, name, prng, tableOf, type Cell, type Column } from './random-tables.js';

const RUNS = Number(process.env.QL_FUZZ_RUNS ?? 20);
const SEED = Number(process.env.QL_FUZZ_SEED ?? 20261123);
const encoder = arrowEncoder();

describe('Arrow IPC encoder, fuzz', () => {
  it(`reads back identically with apache-arrow and flechette (${RUNS} cases, seed ${SEED})`, () => {
    fc.assert(
      fc.property(caseArb, (k) => {
        const rnd = prng(k.seed);
        const cells = k.columns.map((col) => cellsOf(col, k.rows, rnd, k.mode));
        // The keys every lake file carries (provenance, series, endpoint), plus random text values.
        const kv = fileMetadataOf(fileProvenance('trade', `fuzz-${k.seed}`), rnd);
        const bytes = encoder.encode(tableOf(k.columns, cells, k.rows, k.cuts), kv);
        const back = tableFromIPC(bytes);
        expect(back.numRows).toBe(k.rows);
        expect(new Map(back.schema.metadata), 'apache-arrow schema metadata').toEqual(kv);
        k.columns.forEach((col, c) => {
          const vector = back.getChild(name(c))!;
          const got: Cell[] = [];
          for (let i = 0; i < k.rows; i++) {
            const v = vector.get(i) as unknown;
            got.push(col.kind === 'dec' ? wordsToBigInt(v as Uint32Array) : col.kind === 'ts' ? BigInt(v as number | bigint) : (v as Cell));
          }
          expect(got, `${name(c)} ${JSON.stringify(col)}`).toEqual(cells[c]);
        });
        // The second reader: decimals as scaled integers, 64-bit values as BigInt, nothing through a float.
        const other = flechetteFromIPC(bytes, { useDecimalInt: true, useBigInt: true });
        expect(other.numRows).toBe(k.rows);
        expect(new Map(other.schema.metadata), 'flechette schema metadata').toEqual(kv);
        k.columns.forEach((col, c) => {
          const values = other.getChild(name(c)).toArray() as ArrayLike<unknown>;
          const got: Cell[] = Array.from(values, (v) => (col.kind === 'dec' || col.kind === 'ts' ? BigInt(v as number | bigint) : (v as Cell)));
          expect(got, `flechette ${name(c)} ${JSON.stringify(col)}`).toEqual(cells[c]);
        });
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });

  it('refuses a decimal with more digits than its precision', () => {
    for (const precision of [1, 9, 18, 19, 38]) {
      const col: Column = { kind: 'dec', precision, scale: 0 };
      const max = 10n ** BigInt(precision) - 1n;
      expect(() => encoder.encode(tableOf([col], [[max, -max]], 2, []), new Map())).not.toThrow();
      expect(() => encoder.encode(tableOf([col], [[0n, max + 1n]], 2, []), new Map()), `DECIMAL(${precision},0)`).toThrow(/does not fit DECIMAL/);
    }
  });
});
