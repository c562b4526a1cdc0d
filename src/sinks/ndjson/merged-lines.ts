/**
 * The lines of an NDJSON file that accumulates, one per key, in the order their keys first came: a
 * row whose key is already there takes its place (a forming bar made final), never a second line.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { SinkError } from '../../core/errors.js';
import type { Dataset } from '../../core/records.js';
import { lineKey, newerWins } from './line-key.js';

export class MergedLines {
  private readonly lines = new Map<string, string>();

  constructor(private readonly dataset: Dataset) {}

  get size(): number {
    return this.lines.size;
  }

  /** One row, as its object and its line (rowObject / rowToJson). */
  put(obj: Record<string, unknown>, line: string): void {
    const key = lineKey(this.dataset, obj, line);
    const older = this.lines.get(key);
    // Parsing the older line only on a clash keeps the common case (a new key) cheap.
    if (older !== undefined && !newerWins(this.dataset, JSON.parse(older) as Record<string, unknown>, obj)) return;
    this.lines.set(key, line);
  }

  /** A line of the file; one that is not a JSON object throws a SyntaxError (every row is one). */
  putLine(line: string): void {
    const obj = JSON.parse(line) as unknown;
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw new SyntaxError(`${line.slice(0, 40)}${line.length > 40 ? '…' : ''} is JSON but no object`);
    this.put(obj as Record<string, unknown>, line);
  }

  /** Every line of `other`, merged into this (its keys are already computed). */
  merge(other: MergedLines): void {
    for (const [key, line] of other.lines) {
      const older = this.lines.get(key);
      if (older !== undefined && !newerWins(this.dataset, JSON.parse(older) as Record<string, unknown>, JSON.parse(line) as Record<string, unknown>)) continue;
      this.lines.set(key, line);
    }
  }

  values(): IterableIterator<string> {
    return this.lines.values();
  }

  /**
   * The lines of a committed file; none if it does not exist. `bad`: the error for a line that is
   * not a JSON object (default: the commit's SinkError naming the path and line).
   */
  static async read(dataset: Dataset, path: string, bad?: (line: number, reason: string) => Error): Promise<MergedLines> {
    const out = new MergedLines(dataset);
    const input = createReadStream(path, { encoding: 'utf8' });
    let n = 0;
    try {
      for await (const line of createInterface({ input, crlfDelay: Infinity })) {
        n++;
        if (line.length > 0) out.putLine(line);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return out;
      // Commits replace the file whole, so a bad line was put there by hand: name it, merge nothing.
      if (error instanceof SyntaxError) throw bad?.(n, error.message) ?? new SinkError(`ndjson: ${path}:${n}: not a JSON line (${error.message})`, 'commit', error);
      throw error;
    } finally {
      input.destroy();
    }
    return out;
  }
}
