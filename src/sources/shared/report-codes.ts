/**
 * Codes the service did not serve (invalid: ret 600 isolated by bisection; missing: asked for,
 * not returned) are reported by name once per run, while every other code is delivered. They are
 * not rows: no record was received for them, so they are not counted as rejected rows (a code
 * left out of six polls once counted six "rejected" rows that the summary's total never showed).
 * A missing code is also a shortfall: the run does not end as a plain success.
 */
import type { RunContext } from '../../core/component.js';

export class CodeProblems {
  private readonly noted = new Set<string>();

  constructor(private readonly source: string) {}

  /** `asked`: how many codes (series, for /batch-kline) the round asked for. */
  report(ctx: RunContext, asked: number, invalid: readonly string[], missing: readonly string[]): void {
    if (invalid.length + missing.length === 0) return;
    // With every code of the round left out, nothing else was delivered to speak of.
    const others = invalid.length + missing.length < asked ? 'the other codes were delivered' : 'no code was delivered';
    const fresh = (kind: string, codes: readonly string[]) => codes.filter((c) => !this.noted.has(`${kind}:${c}`));
    const newInvalid = fresh('invalid', invalid);
    const newMissing = fresh('missing', missing);
    for (const c of newInvalid) this.noted.add(`invalid:${c}`);
    for (const c of newMissing) this.noted.add(`missing:${c}`);
    if (newInvalid.length > 0) {
      ctx.events.note?.(`${this.source}: invalid code(s) ${newInvalid.join(', ')} (service ret 600 code invalid); ${others}`);
      ctx.logger.warn(`${this.source}: invalid codes`, { codes: newInvalid });
    }
    if (newMissing.length > 0) {
      // Asked for again by the client and still left out (R7): the run delivered less than asked
      // (a shortfall, which the runtime says at warn too).
      ctx.events.shortfall?.(`${this.source}: no data returned for ${newMissing.join(', ')} (asked three times); ${others}`, newMissing.length);
    }
  }
}
