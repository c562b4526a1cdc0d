/**
 * One frame of the terminal display, as lines: the total (requests of planned, rate, ETA, quota),
 * one line per shown stream (the busiest when there are many, the rest summed in one line) and the
 * rows per dataset. Pure: figures in, lines out, each cut to the terminal's width so that no line
 * wraps (a wrapped line would throw off the redraw).
 */
import type { Colors } from '../colors.js';
import { counted, doneShare, formatDuration, MAX_STREAM_BARS, n, visibleStreams, type ProgressFigures, type StreamFigures } from './progress-figures.js';

/** Stream labels are cut to this width so a stream line fits 80 columns. */
const STREAM_LABEL_WIDTH = 18;
const TOTAL_BAR = 20;
const STREAM_BAR = 12;

/** A piece of a line and how to colour it. */
type Segment = readonly [text: string, paint?: (text: string) => string];

export interface FrameOptions {
  /** Terminal width: every line is kept below it. */
  readonly columns: number;
  /** Terminal height, when known: the block keeps below it (a taller block scrolls, and each redraw leaves its top lines behind). */
  readonly rows?: number | undefined;
  readonly colors: Colors;
}

export function renderFrame(f: ProgressFigures, options: FrameOptions): string[] {
  const c = options.colors;
  const width = Math.max(20, options.columns - 1);
  const lines: Segment[][] = [];
  const totalDone = f.finished;
  lines.push([
    [' requests '],
    ...bar(doneShare(f.requests, f.requests - f.refused, f.planned), TOTAL_BAR, totalDone, c),
    [` ${n(f.requests)}${f.planned > 0 ? `/${n(f.planned)}` : ''}`],
    // Why the bar stands still while requests go out.
    ...(f.refused > 0 ? [[` | ${n(f.refused)} refused (429)`, c.yellow] as Segment] : []),
    [` | ${f.rate.toFixed(1)}/s`, c.dim],
    totalDone ? [' | done', c.green] : f.stopped ? [' | stopped', c.yellow] : [` | ETA ${f.etaSeconds !== undefined ? formatDuration(f.etaSeconds) : '-'}`, c.dim],
    ...(f.quotaUsed !== undefined && f.quotaLimit !== undefined ? [[` | quota ${n(f.quotaUsed)}/${n(f.quotaLimit)}`, c.dim] as Segment] : []),
  ]);
  // Room for stream lines: the height less the total line, the dataset lines and one spare line
  // (the cursor rests below the block). At least the summing line is kept.
  const datasets = Object.keys(f.rows).length;
  const room = options.rows !== undefined && options.rows > 0 ? Math.max(1, options.rows - 2 - datasets) : undefined;
  const { shown, hidden } = visibleStreams(f.streams, room === undefined ? undefined : Math.min(room, MAX_STREAM_BARS));
  const labelWidth = Math.min(STREAM_LABEL_WIDTH, Math.max(0, ...shown.map((s) => s.label.length)));
  for (const s of shown) lines.push(streamLine(s, labelWidth, c, f.stopped));
  if (hidden.count > 0) {
    lines.push([[` ${n(hidden.count)} more streams: ${n(hidden.requests)}/${n(hidden.planned)} requests, ${n(hidden.done)} done, ${counted(hidden.rows, 'row')}`, c.dim]]);
  }
  for (const [dataset, r] of Object.entries(f.rows)) {
    lines.push([
      // Merged rows (their key was held already) only when there are some: received = written + merged + rejected.
      [` ${dataset} rows: ${n(r.received)} received | ${n(r.written)} written | ${r.merged ? `${n(r.merged)} merged | ` : ''}`],
      [`${n(r.rejected)} rejected`, r.rejected > 0 ? c.yellow : undefined],
    ]);
  }
  return lines.map((segments) => fit(segments, width));
}

function streamLine(s: StreamFigures, labelWidth: number, c: Colors, stopped: boolean): Segment[] {
  const label: Segment = [` ${cut(s.label, labelWidth).padEnd(labelWidth)} `, c.bold];
  // A stream with rows and no requests of its own (their requests went out for several streams).
  if (s.planned === 0 && s.requests === 0) return [label, [counted(s.rows, 'row')]];
  return [
    label,
    ...bar(doneShare(s.requests, s.progressed, s.planned), STREAM_BAR, s.done, c),
    [` ${n(s.requests)}/${s.planned > 0 ? n(s.planned) : '?'} | ${counted(s.rows, 'row')}`],
    ...(s.done
      ? [[' | done', c.green] as Segment]
      : stopped
        ? [[' | stopped', c.yellow] as Segment]
        : [[` | ${s.rate.toFixed(1)}/s | ETA ${s.etaSeconds !== undefined ? formatDuration(s.etaSeconds) : '-'}`, c.dim] as Segment]),
  ];
}

/** `[====----]`: the share done (0..1), full when done. */
function bar(share: number, size: number, finished: boolean, c: Colors): Segment[] {
  const full = Math.round((finished ? 1 : share) * size);
  return [['['], ['='.repeat(full), finished ? c.green : c.cyan], ['-'.repeat(size - full), c.dim], [']']];
}

function cut(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, Math.max(0, width - 1))}…` : text;
}

/** Joins the segments, coloured, keeping the visible text within `width` (cut with an ellipsis). */
function fit(segments: readonly Segment[], width: number): string {
  let out = '';
  const total = segments.reduce((a, [t]) => a + t.length, 0);
  let room = total > width ? width - 1 : width;
  for (const [text, paint] of segments) {
    if (room <= 0) break;
    const piece = text.length > room ? text.slice(0, room) : text;
    room -= piece.length;
    if (piece !== '') out += paint ? paint(piece) : piece;
  }
  return total > width ? `${out}…` : out;
}
