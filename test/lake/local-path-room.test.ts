/** The room a local output and state folder keep for quotelake's own files (lake/local-path-room.ts). */
import { describe, expect, it } from 'vitest';
import { LAKE_KEY_RESERVE_BYTES, LOCAL_TEMP_BYTES } from '../../src/core/lake-key-reserve.js';
import { checkLocalPathRoom, LOCAL_LAKE_RESERVE_BYTES, maxLocalPathBytes, stateFilesReserve } from '../../src/lake/local-path-room.js';

describe('the room under a local output', () => {
  it('is the longest lake key plus the temp name of an atomic write (pid of 7 digits)', () => {
    expect(`.x.tmp-${'9'.repeat(7)}-${'f'.repeat(8)}`.length - 'x'.length).toBe(LOCAL_TEMP_BYTES);
    expect(LOCAL_LAKE_RESERVE_BYTES).toBe(LAKE_KEY_RESERVE_BYTES + 22);
    expect([maxLocalPathBytes('linux'), maxLocalPathBytes('darwin'), maxLocalPathBytes('win32')]).toEqual([4095, 1023, undefined]);
  });

  it('takes an output of the longest length that fits and refuses one byte more', () => {
    const fits = `/${'o'.repeat(1023 - LOCAL_LAKE_RESERVE_BYTES - 2)}`;
    expect(() => checkLocalPathRoom({ output: fits }, 1023)).not.toThrow();
    expect(() => checkLocalPathRoom({ output: `${fits}o` }, 1023)).toThrow(`its path is ${fits.length + 1} bytes long, and a path on this system has at most 1023 bytes (PATH_MAX 1024)`);
  });

  it('counts a long pipeline name in its state folder, and the state folder apart from the output', () => {
    const name = 'n'.repeat(200);
    expect(stateFilesReserve(name)).toBe(`checkpoints/${name}.json`.length + 22);
    const state = `/${'s'.repeat(1023 - stateFilesReserve(name) - 2)}`;
    expect(() => checkLocalPathRoom({ output: '/out', state: { dir: state, pipeline: name } }, 1023)).not.toThrow();
    expect(() => checkLocalPathRoom({ output: '/out', state: { dir: `${state}s`, pipeline: name } }, 1023)).toThrow(`the state folder of pipeline ${name}, ${state}s: its path is`);
    // A short name leaves the state folder the room of its run records.
    expect(() => checkLocalPathRoom({ output: '/out', state: { dir: `${state}s`, pipeline: 'p' } }, 1023)).not.toThrow();
  });

  it("holds a sink's own file under the output to the whole limit, its temporary name included", () => {
    const file = `exports/${'f'.repeat(1023 - '/out/exports/'.length)}`;
    expect(() => checkLocalPathRoom({ output: '/out', sinkFiles: [file] }, 1023)).not.toThrow();
    expect(() => checkLocalPathRoom({ output: '/out', sinkFiles: [`${file}f`] }, 1023)).toThrow(
      `output /out: the sink writes ${file}f under it, whose path is 1024 bytes long (its temporary name included), and a path on this system has at most 1023 bytes (PATH_MAX 1024)`,
    );
    // No local output (an object store's): no file of the sink is under a local path.
    expect(() => checkLocalPathRoom({ sinkFiles: [`${file}f`] }, 1023)).not.toThrow();
  });
});
