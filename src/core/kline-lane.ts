/**
 * A batch's K-lines as columns over the page the client scanned (lazy-rows.ts says why): which
 * scanned bars the records are, in which order, of which series, each bar's open time and whether
 * it is final. The records stay the contract; the lane is what the stages that know it read
 * instead. `stage` says which records it stands for: `raw` beside the source's RawKline records,
 * `parsed` beside parse-decimals' KlineRow rows (every value checked, the words exact at scale 18).
 */
import type { Lane } from './lazy-rows.js';
import type { Interval } from './records.js';
import type { ScannedWords } from './scanned-bar.js';

export class KlineLane implements Lane {
  constructor(
    readonly stage: 'raw' | 'parsed',
    readonly page: ScannedWords,
    /** The scanned bar of the first record. */
    readonly first: number,
    /** 1 when the records are in the page's order, -1 when reversed (a newest-first page). */
    readonly step: 1 | -1,
    readonly code: string,
    readonly interval: Interval,
    readonly source: string,
    /** Each record's bar open time (Unix s), ascending. */
    readonly seconds: Float64Array,
    /** 1 where the record's bar is final. */
    readonly final: Uint8Array,
  ) {}

  get length(): number {
    return this.seconds.length;
  }

  /** The scanned bar of record `i`. */
  row(i: number): number {
    return this.first + this.step * i;
  }

  /** About what one record weighs (for rechunk's bound): its share of the answer's text, and its words. */
  get rowBytes(): number {
    return this.page.rowBytes;
  }

  /** Records [from, to) of these (views of the same arrays and page, nothing copied). */
  slice(from: number, to: number): KlineLane {
    return new KlineLane(this.stage, this.page, this.row(from), this.step, this.code, this.interval, this.source, this.seconds.subarray(from, to), this.final.subarray(from, to));
  }

  /** The page stays readable for good (ScannedWords.viewed): the records may be read after the sink took the lane. */
  pin(): void {
    this.page.viewed();
  }

  /** The same records at the next stage. */
  as(stage: 'raw' | 'parsed'): KlineLane {
    return new KlineLane(stage, this.page, this.first, this.step, this.code, this.interval, this.source, this.seconds, this.final);
  }
}

/** The K-line lane of `lane` (what laneOf found) at `stage`, or undefined. */
export function klineLaneAt(lane: Lane | undefined, stage: 'raw' | 'parsed'): KlineLane | undefined {
  return lane instanceof KlineLane && lane.stage === stage ? lane : undefined;
}
