/**
 * The lines of an NDJSON file that accumulates, one per key, in the order their keys first came: a
 * row whose key is already there takes its place (a forming bar made final), never a second line.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { SinkError } from '../../core/errors.js';
import type { Dataset } from '../../core/records.js';
import { lineDataset, lineKey, newerWins } from './line-key.js';

/** A line of the file that is a row of another dataset than the file's. */
class LineOfOtherDataset extends Error {
  constructor(
    readonly held: Dataset,
    readonly wanted: Dataset,
  ) {
    super(`holds a ${held} row, and this file takes ${wanted} rows`);
  }
}

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

  /**
   * A line of the file. One that is not a JSON object throws a SyntaxError (every row is one); a
   * row of another dataset (two pipelines given one path) a LineOfOtherDataset: merged by this
   * dataset's key it could replace a row it is not.
   */
  putLine(line: string): void {
    const obj = JSON.parse(line) as unknown;
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw new SyntaxError(`${line.slice(0, 40)}${line.length > 40 ? '…' : ''} is JSON but no object`);
    const other = lineDataset(obj as Record<string, unknown>);
    if (other !== undefined && other !== this.dataset) throw new LineOfOtherDataset(other, this.dataset);
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
   * not a JSON object or is another dataset's row, given what is wrong with it (default: the
   * commit's SinkError naming the path and line).
   */
  static async read(dataset: Dataset, path: string, bad?: (line: number, problem: string) => Error): Promise<MergedLines> {
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
      const problem = error instanceof SyntaxError ? `is not a JSON object (${error.message})` : error instanceof LineOfOtherDataset ? error.message : undefined;
      if (problem !== undefined) throw bad?.(n, problem) ?? new SinkError(`ndjson: ${path}:${n}: ${problem}`, 'commit', error);
      throw error;
    } finally {
      input.destroy();
    }
    return out;
  }
}
