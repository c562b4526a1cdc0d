/** The text form of `quotelake inspect`. */
import { byteSize, counted, n } from '../progress/progress-figures.js';
import type { OutputInfo } from './inspect-output.js';

const MAX_SERIES = 40;
const MAX_NDJSON = 10;

/** `runsAsked`: --runs; with 0 the runs are left out, not said to be missing. */
export function renderInspect(info: OutputInfo, runsAsked = 5): string {
  const lines = [`quotelake: ${info.output}`];
  if (info.datasets.length === 0 && info.ndjsonFiles.length === 0) lines.push('  no datasets (no manifest under _quotelake/manifests/ for kline, trade, depth or halt)');
  if (info.datasets.length === 0 && info.ndjsonFiles.length > 0) lines.push('  no lake datasets (no manifest under _quotelake/manifests/ for kline, trade, depth or halt)');
  for (const d of info.datasets) {
    lines.push(`  ${d.dataset} (${d.format}): ${counted(d.rows, 'row')} in ${counted(d.files, 'file')}${d.unreadable > 0 ? ` (${n(d.unreadable)} missing or unreadable, not counted)` : ''}, ${counted(d.partitions.length, 'partition')}, ${byteSize(d.bytes)}, updated ${d.updatedAt}`);
    const width = Math.max(6, ...d.series.slice(0, MAX_SERIES).map((s) => s.series.length));
    for (const s of d.series.slice(0, MAX_SERIES)) {
      lines.push(`    ${s.series.padEnd(width)}  ${n(s.rows).padStart(10)} ${s.rows === 1 ? 'row ' : 'rows'}  ${s.first ?? '-'} .. ${s.last ?? '-'}`);
    }
    if (d.series.length > MAX_SERIES) lines.push(`    ... and ${d.series.length - MAX_SERIES} more series (--json lists all)`);
    for (const p of d.problems) lines.push(`    problem: ${p}`);
  }
  for (const c of info.pendingCommits) {
    lines.push(`  pending: a commit of ${c.dataset} (${c.format}, ${counted(c.files, 'file')}) that run ${c.run} decided and did not finish; the next run or "quotelake compact" on this output finishes it`);
  }
  if (info.ndjsonFiles.length > 0) {
    const k = info.ndjsonFiles.length;
    const names = info.ndjsonFiles.slice(0, MAX_NDJSON).map((f) => `${f.path} (${byteSize(f.bytes)})`);
    const more = k > MAX_NDJSON ? `, ... and ${k - MAX_NDJSON} more (--json lists all)` : '';
    lines.push(`  ${counted(k, 'NDJSON file')}, not ${k === 1 ? 'a lake dataset' : 'lake datasets'} (an ndjson sink's; inspect reads and checks only the lake's datasets): ${names.join(', ')}${more}`);
  }
  if (info.rejectedFiles > 0) lines.push(`  _rejected: ${counted(info.rejectedFiles, 'file')} of rejected records`);
  if (info.runs.length > 0) {
    lines.push(`  last runs (${info.stateDir}):`);
    for (const r of info.runs) {
      // What a killed or running run fetched and has not committed: the quota it cost is not 0 rows'
      // worth. A succeeded run committed every batch (a transform of the user's may drop rows).
      const uncommitted = r.status === 'succeeded' ? 0 : r.rowsReceived - r.rowsWritten - r.rowsMerged - r.rejected;
      lines.push(
        `    ${r.startedAt}  ${r.pipeline}  ${r.status}${r.processGone ? ' (its process is gone, killed or crashed: the next run here marks it interrupted)' : ''}${r.commitFinishedBy ? ` (its last commit finished by run ${r.commitFinishedBy})` : ''}  ${counted(r.requests, 'request')}, ${counted(r.rowsWritten, 'row')}${r.rowsMerged > 0 ? ` (+ ${n(r.rowsMerged)} merged)` : ''}, ${counted(r.files, 'file')}${r.rejected > 0 ? `, ${n(r.rejected)} rejected` : ''}${uncommitted > 0 ? `, ${n(uncommitted)} received not committed` : ''}${r.error ? `: ${r.error}` : ''}`,
      );
    }
  } else if (runsAsked > 0) {
    lines.push(`  no runs recorded under ${info.stateDir}`);
  }
  // History, not state: left out of the list, but said, so a missing run does not go unexplained.
  if (info.damagedRunRecords.length > 0) {
    lines.push(`  left out: ${counted(info.damagedRunRecords.length, 'run record')} that cannot be read (not JSON, or not a run record): ${info.damagedRunRecords.map((f) => `runs/${f}`).join(', ')}`);
  }
  return lines.join('\n');
}
