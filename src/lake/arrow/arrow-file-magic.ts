/**
 * An Arrow IPC file starts with `ARROW1` (and two bytes of padding) and ends with its footer's
 * length and `ARROW1` again. apache-arrow checks neither before it reads: an empty file decodes as
 * a table of no rows and no columns (a merge then failed on "Cannot read properties of undefined"),
 * and a file cut short fails with a TypeError of its internals. Checked first, a damaged file is
 * said as one, as a Parquet file's missing magic is.
 */
const MAGIC = [0x41, 0x52, 0x52, 0x4f, 0x57, 0x31]; // "ARROW1"
/** Start magic and padding, footer length and end magic: no IPC file is shorter. */
const SHORTEST = 8 + 4 + MAGIC.length;

const holdsMagic = (bytes: Uint8Array): boolean => bytes.length === MAGIC.length && MAGIC.every((b, i) => bytes[i] === b);

/**
 * What is wrong with a file of `size` bytes whose first and last six bytes are `head` and `tail`,
 * or undefined when both magics are there.
 */
export function arrowMagicProblem(size: number, head: Uint8Array, tail: Uint8Array): string | undefined {
  if (size < SHORTEST) return `not an Arrow IPC file: ${size} bytes, fewer than any holds (cut short?)`;
  if (!holdsMagic(head)) return 'not an Arrow IPC file: no ARROW1 magic at its start';
  if (!holdsMagic(tail)) return 'not a whole Arrow IPC file: no ARROW1 magic at its end (cut short?)';
  return undefined;
}

/** The same check of a file held whole in memory; throws with the problem. */
export function assertArrowFile(bytes: Uint8Array): void {
  const problem = arrowMagicProblem(bytes.length, bytes.subarray(0, MAGIC.length), bytes.subarray(bytes.length - MAGIC.length));
  if (problem !== undefined) throw new Error(problem);
}

export const ARROW_MAGIC_BYTES = MAGIC.length;
