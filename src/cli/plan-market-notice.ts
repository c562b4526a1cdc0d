/**
 * What `plan` and `run --dry-run` say on stderr of codes outside an All-* style plan's market: the
 * run would stop at the first request carrying one (`ret 604`, exit 1), so it is said before the
 * run, with the run's own words and hint. The exit code stays the quota's (plan-verdict.ts): the
 * market is read from our catalog, which a real service may see otherwise.
 */
import { outsideMarketSaid } from '../plan/plan-pipeline.js';
import type { PlanReport } from './plan-report.js';
import type { Terminal } from './terminal.js';

export function sayOutsideMarket(terminal: Terminal, reports: readonly PlanReport[]): void {
  for (const r of reports) {
    const outside = r.plan.outsideMarket;
    if (outside === undefined) continue;
    const said = `quotelake: ${r.pipeline}: ${outsideMarketSaid(outside.codes)}`;
    terminal.notice(said, {
      level: 'warn',
      event: 'plan-outside-market',
      pipeline: r.pipeline,
      plan: r.service.plan,
      codes: outside.codes,
      hint: outside.hint,
    }, `${said}\n  hint: ${outside.hint}`);
  }
}
