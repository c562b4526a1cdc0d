/**
 * What `plan` and `run --dry-run` exit with: the code the planned run would end with as far as the
 * quota decides it. Requests beyond what is left of today's quota make the run stop at the daily
 * quota (exit 75, committed work kept, resumed after the reset), so the plan says 75 too, and
 * `quotelake plan p.yaml && quotelake run p.yaml` does not spend a day's quota unasked.
 */
import { EXIT_OK, EXIT_QUOTA, worstExitCode } from './exit-codes.js';
import type { PlanReport } from './plan-report.js';
import type { Terminal } from './terminal.js';

/** 75 when the plan's requests exceed today's remaining quota (the run would stop at it), else 0. */
export function quotaVerdict(requests: number, remaining: number): number {
  return requests > remaining ? EXIT_QUOTA : EXIT_OK;
}

/** The command's code over every plan; each plan over its quota is said in one notice on stderr. */
export function sayPlanVerdicts(terminal: Terminal, reports: readonly PlanReport[]): number {
  for (const r of reports) {
    if (r.exitCode === EXIT_OK) continue;
    const { totalRequests, quota, coveredQuotaShort: short } = r.plan;
    if (short !== undefined && totalRequests <= quota.remaining) {
      terminal.notice(
        `quotelake: ${r.pipeline}: the ${short.requests} requests of ${short.codes.join(',')} exceed the ${short.remaining} left of today's quota of the tokens whose plan covers them: a run would stop at the daily quota (exit 75), ` +
          `which resets at ${r.quota.resetAt}. Run it anyway with "quotelake run" (what it fetches before the stop is kept), or ask for less.`,
        { event: 'plan-over-quota', pipeline: r.pipeline, requests: short.requests, remaining: short.remaining, codes: short.codes, days: quota.days, resetAt: r.quota.resetAt },
      );
      continue;
    }
    terminal.notice(
      `quotelake: ${r.pipeline}: its ${totalRequests} requests exceed the ${quota.remaining} left of today's quota${quota.remaining < r.quota.remaining ? ' after the pipelines before it' : ''}: a run would stop at the daily quota (exit 75), ` +
        `which resets at ${r.quota.resetAt}. Run it anyway with "quotelake run" (what it fetches before the stop is kept), or ask for less.`,
      { event: 'plan-over-quota', pipeline: r.pipeline, requests: totalRequests, remaining: quota.remaining, days: quota.days, resetAt: r.quota.resetAt },
    );
  }
  return worstExitCode(reports.map((r) => r.exitCode));
}
