/**
 * The sink's spill files: written as Arrow IPC streams without joining the stream into one buffer,
 * read back into one reused buffer. Exact values back, any number of files of any size, and a
 * larger partition after a smaller one grows the buffer.
 */
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { tableFromArrays, tableFromIPC, tableToIPC, type Table } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { SpillReader, writeSpill } from '../../src/lake/commit/spill-io.js';
import { tempDir } from '../sinks/helpers.js';

function sample(rows: number, seed: number) {
  const ts = new Float64Array(rows).map((_, i) => 1_700_000_000_000 + 60_000 * (i + seed));
  const code = Array.from({ length: rows }, (_, i) => ['BTCUSDT', 'EURUSD', 'GOLD'][(i + seed) % 3]!);
  const n = new Int32Array(rows).map((_, i) => i * seed - 7);
  return tableFromArrays({ code, ts, n });
}

const valuesOf = (t: Table) => t.schema.fields.map((f) => Array.from(t.getChild(f.name)!.toArray() as ArrayLike<unknown>));

describe('spill files', () => {
  it('write the same bytes as tableToIPC and read back exactly, several files into one reused buffer', async () => {
    const dir = await tempDir('ql-spill-');
    const tables = [sample(3, 1), sample(1000, 2), sample(0, 3), sample(17, 4)];
    const paths = tables.map((_, i) => join(dir, `spill-${i}.arrows`));
    for (const [i, t] of tables.entries()) await writeSpill(paths[i]!, t);
    expect(new Uint8Array(await readFile(paths[1]!))).toEqual(tableToIPC(tables[1]!, 'stream'));

    const reader = new SpillReader();
    const small = await reader.read(paths.slice(0, 1));
    expect(valuesOf(small[0]!)).toEqual(valuesOf(tables[0]!));
    // A larger read after a smaller one (the buffer grows); tables come back in the order asked.
    const back = await reader.read(paths);
    expect(back.map(valuesOf)).toEqual(tables.map(valuesOf));
    expect(back.map((t) => t.numRows)).toEqual([3, 1000, 0, 17]);
    expect(valuesOf(tableFromIPC(await readFile(paths[3]!)))).toEqual(valuesOf(back[3]!));
  });

  it('names the file that is missing', async () => {
    const dir = await tempDir('ql-spill-');
    await expect(new SpillReader().read([join(dir, 'gone.arrows')])).rejects.toMatchObject({ code: 'ENOENT', path: join(dir, 'gone.arrows') });
  });
});
