/** Config pieces every source shares: code lists, intervals, polling rounds. */
import * as z from 'zod';
import { INTERVALS, type Interval } from '../../core/records.js';
import type { LintFinding } from '../../core/definition.js';
import { codeSchema } from './known-codes.js';
import type { RoundsConfig } from '../../core/round-starts.js';

export const codeListSchema = listedOnce(z.array(codeSchema).min(1), 'codes').describe('Product codes exactly as in the product catalog (case-sensitive), e.g. BTCUSDT, AAPL.US, 600000.SH; an unknown one stops the pipeline before any request.');

export const intervalListSchema = listedOnce(z.array(z.enum(INTERVALS as unknown as [Interval, ...Interval[]])).min(1), 'intervals').describe('Bar intervals: 1m, 5m, 15m, 30m, 1h, 2h, 4h, 1d, 1w, 1mo (2h and 4h not for stocks and indexes).');

/**
 * A value listed twice (`[BTCUSDT, BTCUSDT]`): a copy where another was meant, most likely. Each is
 * fetched once either way, so the second is pointed at rather than silently merged.
 */
function lintRepeated(values: readonly string[], path: string): LintFinding[] {
  const first = new Map<string, number>();
  const out: LintFinding[] = [];
  values.forEach((value, i) => {
    const at = first.get(value);
    if (at === undefined) first.set(value, i);
    else out.push({ path: [path, i], message: `"${value}" is listed already, at ${path}[${at}]: remove one (or write the value you meant)` });
  });
  return out;
}

/**
 * `list` with its repeated values pointed at (lintRepeated) by the list's own schema. zod skips a
 * list's checks once one of its items failed (`[sse, sse, foo]`), and so would a stage's lint:
 * this check runs whatever its items did, so every problem of the list is said at once.
 */
export function listedOnce<T extends z.ZodArray<z.ZodType>>(list: T, name: string): T {
  return list.superRefine(
    (values, ctx) => {
      for (const f of lintRepeated(values as unknown as readonly string[], name)) {
        ctx.addIssue({ code: 'custom', path: f.path.slice(1), message: f.message, params: { lint: true } });
      }
    },
    { when: (payload) => Array.isArray(payload.value) },
  );
}

/** One round, or one every `everySeconds` for `count` rounds or `durationSeconds`. */
export const roundsShape = {
  everySeconds: z.number().int().min(1).max(86_400).optional().describe('Repeat a round every N seconds (default: one round), with count, durationSeconds or both (the first reached ends it; alone it is refused, as it would never stop). A round that starts late (a slow answer, a held limit) pushes the next ones on: rounds are never closer than N seconds.'),
  count: z.number().int().min(1).max(1_000_000).optional().describe('Number of rounds when everySeconds is set (with durationSeconds too, the first reached ends the polling).'),
  durationSeconds: z
    .number()
    .int()
    .min(1)
    .max(31 * 86_400)
    .optional()
    .describe('Keep polling for this long when everySeconds is set (rounds start within it; with count too, the first reached ends the polling).'),
};

// The rounds' config and offsets live with the rule that paces them (core/round-starts.ts).
export { roundOffsets, type RoundsConfig } from '../../core/round-starts.js';

export function lintRounds(config: RoundsConfig): LintFinding[] {
  const out: LintFinding[] = [];
  // An everySeconds the schema refuses (0, -5) is said by its own bound alone: "needs count" beside
  // it spoke of a repeat the value cannot give, and hid that 0 is not allowed.
  const repeats = config.everySeconds !== undefined && roundsShape.everySeconds.safeParse(config.everySeconds).success;
  if (repeats && config.count === undefined && config.durationSeconds === undefined) {
    out.push({ path: ['everySeconds'], message: 'everySeconds needs count or durationSeconds, or the source would never stop' });
  }
  if (config.everySeconds === undefined && (config.count !== undefined || config.durationSeconds !== undefined)) {
    out.push({ path: [config.count !== undefined ? 'count' : 'durationSeconds'], message: 'count and durationSeconds only apply with everySeconds' });
  }
  return out;
}
