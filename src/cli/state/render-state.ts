/** `state show` as text: one block per pipeline, one line per stream. */
import { counted, n } from '../progress/progress-figures.js';
import type { Instant, StreamState } from './describe-stream.js';
import type { PipelineState, StreamReport } from './read-state.js';

function at(i: Instant | null | undefined): string {
  if (!i) return '-';
  return i.local !== undefined ? `${i.utc} (${i.local} ${i.zone})` : i.utc;
}

function progressOf(s: StreamState): string {
  if (s.dataset === 'kline') {
    const parts = [`watermark ${at(s.watermark)}`, `low ${at(s.low)}`];
    if (s.walk) parts.push(`walking back${s.walk.top ? ` from ${at(s.walk.top)} (held down to low)` : ''}: next ${s.walk.next.utc}, down to ${s.walk.floor.utc}`);
    if (s.begins) parts.push(`history begins ${s.begins.utc}`);
    return parts.join(', ');
  }
  if (s.dataset === 'halt') return `${n(s.seen ?? 0)} announcement(s) held${s.total !== undefined ? ` of ${n(s.total)} listed` : ''}`;
  return `last fetch ${at(s.watermark)}${s.round !== undefined ? `, round ${s.round}` : ''}`;
}

function lastRunOf(s: StreamReport): string {
  return s.lastRun ? `; last run ${counted(s.lastRun.requests, 'request')}, ${counted(s.lastRun.rows, 'row')}` : '';
}

export function renderPipelineState(p: PipelineState): string {
  const lines = [`${p.pipeline}${p.file !== undefined ? ` (${p.file})` : ''}`];
  if (!p.keepsState) lines.push('  keeps no checkpoints: every run writes its whole window (NDJSON to stdout; `run --state` keeps them)');
  if (p.checkpoints) {
    lines.push(`  checkpoints ${p.checkpoints.path}, saved ${p.checkpoints.updatedAt ?? '?'} by run ${p.checkpoints.runId ?? '?'}`);
  } else if (p.keepsState) {
    lines.push(`  no checkpoints under ${p.stateDir}: the next run starts from since`);
  }
  const r = p.lastRun;
  if (r) {
    const rows = Object.entries(r.rows)
      // Merged rows said too, so the figures add up (a re-fetched round is all merged, none written).
      .map(([dataset, c]) => `${dataset} ${n(c.received)} received, ${n(c.written)} written, ${c.merged !== undefined ? `${n(c.merged)} merged, ` : ''}${n(c.rejected)} rejected`)
      .join('; ');
    lines.push(`  last run ${r.runId} ${r.status}${r.processGone ? ' (its process is gone, killed or crashed: the next run here marks it interrupted)' : ''}${r.commitFinishedBy ? ` (its last commit finished by run ${r.commitFinishedBy})` : ''}, ${r.startedAt} .. ${r.finishedAt ?? '?'}: ${n(r.requests)} requests${rows ? `; ${rows}` : ''}`);
  }
  if (p.streams.length > 0) {
    const width = Math.max(...p.streams.map((s) => s.stream.length));
    for (const s of p.streams) lines.push(`  ${s.stream.padEnd(width)}  ${progressOf(s)}${lastRunOf(s)}  -> ${s.lake === 'stdout' ? 'stdout (no lake holds these rows)' : `${s.lake}${s.code !== undefined ? ` (code=${s.code})` : ''}`}`);
  } else if (p.checkpoints) {
    lines.push('  no stream matches');
  }
  return lines.join('\n');
}
