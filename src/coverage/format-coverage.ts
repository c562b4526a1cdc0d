/** The coverage report as text for a terminal: one line per series, then the unexplained gaps. */
import { groupedCount as n } from '../core/grouped-count.js';
import type { CoverageReport } from './coverage-report.js';

const iso = (ms: number) => new Date(ms).toISOString().replace(':00.000Z', 'Z');

export interface FormatOptions {
  readonly maxGapsPerSeries?: number;
  /** What a series narrowed to a range is said to cover (the run summary: "this run's range"). */
  readonly rangeLabel?: string;
  /** The first line's opening word(s), `coverage` unless told (inspect names the format when a lake has two). */
  readonly heading?: string;
}

export function formatCoverageReport(report: CoverageReport, options: FormatOptions | number = {}): string {
  const { maxGapsPerSeries = 10, rangeLabel = 'range asked', heading = 'coverage' } = typeof options === 'number' ? { maxGapsPerSeries: options } : options;
  const lines: string[] = [];
  const t = report.totals;
  lines.push(
    `${heading}: ${n(report.series.length)} series; gaps: ${n(t['market-closed'])} market closed, ${n(t.halted)} halted, ${n(t.unexplained)} unexplained` +
      (report.haltsUsed ? '' : ' (no halt dataset: halts count as unexplained)'),
  );
  for (const s of report.series) {
    const c = s.counts;
    lines.push(
      `  ${s.code} ${s.interval}: ${n(s.bars)} bar${s.bars === 1 ? '' : 's'} ${iso(s.first)} .. ${iso(s.last)}${s.range ? ` (${rangeLabel})` : ''}; closed ${n(c['market-closed'])}, halted ${n(c.halted)}, unexplained ${n(c.unexplained)}` +
        (s.historyBegins !== undefined ? `; history begins at ${iso(s.historyBegins)} (the service has no older bar)` : '') +
        (s.noCalendar === true ? '; no calendar for this code: its gaps are not counted' : ''),
    );
    const odd = s.gaps.filter((g) => g.reason !== 'market-closed');
    for (const g of odd.slice(0, maxGapsPerSeries)) {
      lines.push(`    ${g.reason}: ${iso(g.from)} .. ${iso(g.to)} (${n(g.missingBars)} bar${g.missingBars === 1 ? '' : 's'} missing)`);
    }
    const more = Math.max(0, odd.length - maxGapsPerSeries) + (s.gapsNotListed ?? 0);
    if (more > 0) lines.push(`    ... ${n(more)} more`);
  }
  return lines.join('\n');
}
