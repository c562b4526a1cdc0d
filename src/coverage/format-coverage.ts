/** The coverage report as text for a terminal: one line per series, then the unexplained gaps. */
import type { CoverageReport } from './coverage-report.js';

const iso = (ms: number) => new Date(ms).toISOString().replace(':00.000Z', 'Z');

export function formatCoverageReport(report: CoverageReport, maxGapsPerSeries = 10): string {
  const lines: string[] = [];
  const t = report.totals;
  lines.push(
    `coverage: ${report.series.length} series; gaps: ${t['market-closed']} market closed, ${t.halted} halted, ${t.unexplained} unexplained` +
      (report.haltsUsed ? '' : ' (no halt dataset: halts count as unexplained)'),
  );
  for (const s of report.series) {
    const c = s.counts;
    lines.push(
      `  ${s.code} ${s.interval}: ${s.bars} bars ${iso(s.first)} .. ${iso(s.last)}; closed ${c['market-closed']}, halted ${c.halted}, unexplained ${c.unexplained}` +
        (s.historyBegins !== undefined ? `; history begins at ${iso(s.historyBegins)} (the service has no older bar)` : ''),
    );
    const odd = s.gaps.filter((g) => g.reason !== 'market-closed');
    for (const g of odd.slice(0, maxGapsPerSeries)) {
      lines.push(`    ${g.reason}: ${iso(g.from)} .. ${iso(g.to)} (${g.missingBars} bar${g.missingBars === 1 ? '' : 's'} missing)`);
    }
    if (odd.length > maxGapsPerSeries) lines.push(`    ... ${odd.length - maxGapsPerSeries} more`);
  }
  return lines.join('\n');
}
