/**
 * Draws a block of lines at the bottom of a terminal and redraws it in place: the cursor goes back
 * up over the block, each line is rewritten and cleared to its end, and whatever the previous
 * block had below is cleared. A log line goes above the block: the block is cleared, the line is
 * written whole (never cut, it may wrap: nothing moves back over it), and the block is drawn again
 * under it. Each of these is one write, so a signal handler's line cannot land inside a frame.
 * After `finish` the last frame stays on screen, drawn once, and nothing is drawn any more.
 */
import type { Writable } from 'node:stream';

const ESC = '\x1b[';
/** Cursor to the first column; clear to the end of the line; clear to the end of the screen. */
const COLUMN_1 = '\r';
const CLEAR_LINE = `${ESC}K`;
const CLEAR_BELOW = `${ESC}J`;

export interface Painter {
  /** Replaces the block on screen with `lines` (each must fit the width: a wrapped line is not tracked). */
  draw(lines: readonly string[]): void;
  /** Writes `text` (one line or several) above the block. */
  log(text: string): void;
  /** Draws the last frame and leaves it; later calls do nothing but log, which then just writes. */
  finish(lines: readonly string[]): void;
}

export function createPainter(stream: Writable): Painter {
  /** Lines of the block now on screen; the cursor sits at the start of the line below it. */
  let height = 0;
  let last: readonly string[] = [];
  let finished = false;
  // "ESC[0A" moves one line up on many terminals: only ever move by a positive count.
  const up = () => (height > 0 ? `${ESC}${height}A${COLUMN_1}` : COLUMN_1);
  const block = (lines: readonly string[]) => lines.map((l) => `${l}${CLEAR_LINE}\n`).join('');
  return {
    draw(lines) {
      if (finished) return;
      stream.write(`${up()}${block(lines)}${CLEAR_BELOW}`);
      height = lines.length;
      last = lines;
    },
    log(text) {
      if (finished) {
        stream.write(`${text}\n`);
        return;
      }
      stream.write(`${up()}${CLEAR_BELOW}${text}\n${block(last)}`);
      height = last.length;
    },
    finish(lines) {
      if (finished) return;
      stream.write(`${up()}${block(lines)}${CLEAR_BELOW}`);
      finished = true;
      height = 0;
      last = [];
    },
  };
}
