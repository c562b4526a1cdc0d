/**
 * Behaviours the service may show (decisions R1, R2, R4-R7), as text such as
 * `short-pages=0.5,missing-bars=0.02,descending,overlap,number-forms,extra-fields,halt-duplicates=0.3,omit-codes=0.1`.
 * A name alone takes its default rate; `all` switches every behaviour on with the rates of
 * ALL_BEHAVIOURS, and parts after it override single rates (`all,short-pages=0`). Everything is off
 * unless named. The transient failures of R3 are faults (see `faults/fault-spec.ts`), not behaviours.
 */
import { ConfigError } from '../../core/errors.js';

export interface BehaviourSpec {
  /** R1: per /kline answer, the page is cut to a random 1..count-1 of its newest bars. */
  shortPages: number;
  /** R1: per intraday (code, kline_type, timestamp), the bar does not exist at all. At most 0.9. */
  missingBars: number;
  /** R2: per K-line list, newest first. */
  descending: number;
  /** R2: per K-line list (and per /batch-kline item list), a random order; drawn after `descending`. */
  shuffle: number;
  /** R2: per /kline answer with an end timestamp, served as if the end were one bar period later. */
  overlap: number;
  /** R4: per price, volume or turnover, a non-canonical text of the same value. */
  numberForms: number;
  /** R5: per JSON object of an answer, one or two unknown fields. */
  extraFields: number;
  /** R6: per halt answer, a record repeated (paged: page p > 1 starts with page p-1's last record). */
  haltDuplicates: number;
  /** R7: per requested code of a depth/trade answer, the code is left out. */
  omitCodes: number;
}

export const NO_BEHAVIOURS: BehaviourSpec = Object.freeze({
  shortPages: 0,
  missingBars: 0,
  descending: 0,
  shuffle: 0,
  overlap: 0,
  numberForms: 0,
  extraFields: 0,
  haltDuplicates: 0,
  omitCodes: 0,
});

/** What `all` means: every behaviour on, often enough to show up in a short test, rare enough to let data through. */
export const ALL_BEHAVIOURS: BehaviourSpec = Object.freeze({
  shortPages: 0.3,
  missingBars: 0.02,
  descending: 0.3,
  shuffle: 0.3,
  overlap: 1,
  numberForms: 0.5,
  extraFields: 0.5,
  haltDuplicates: 0.3,
  omitCodes: 0.1,
});

/** Spec name → field and the rate a name alone gives. */
const NAMES: Readonly<Record<string, { key: keyof BehaviourSpec; rate: number }>> = {
  'short-pages': { key: 'shortPages', rate: 0.5 },
  'missing-bars': { key: 'missingBars', rate: 0.02 },
  descending: { key: 'descending', rate: 1 },
  shuffle: { key: 'shuffle', rate: 1 },
  overlap: { key: 'overlap', rate: 1 },
  'number-forms': { key: 'numberForms', rate: 1 },
  'extra-fields': { key: 'extraFields', rate: 1 },
  'halt-duplicates': { key: 'haltDuplicates', rate: 0.5 },
  'omit-codes': { key: 'omitCodes', rate: 0.1 },
};

export const BEHAVIOUR_NAMES: readonly string[] = Object.keys(NAMES);

/** More than this and a page of 500 would need hundreds of look-ups to fill. */
export const MAX_MISSING_BARS = 0.9;

/** A ConfigError (code QL_CONFIG), as every option a library caller can get wrong. */
export class BehaviourSpecError extends ConfigError {
  constructor(
    readonly part: string,
    reason: string,
  ) {
    super(`invalid behaviour spec part "${part}": ${reason}`, {}, undefined, 'README, "Behaviours", lists the parts a behaviour spec takes');
  }
}

export function parseBehaviourSpec(text: string): BehaviourSpec {
  const spec: BehaviourSpec = { ...NO_BEHAVIOURS };
  const seen = new Set<string>();
  for (const rawPart of text.split(',')) {
    const part = rawPart.trim();
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = (eq < 0 ? part : part.slice(0, eq)).trim().toLowerCase();
    if (seen.has(name)) throw new BehaviourSpecError(part, `"${name}" given twice`);
    seen.add(name);
    if (name === 'all' || name === 'none') {
      if (eq >= 0) throw new BehaviourSpecError(part, `"${name}" takes no value`);
      if (seen.size > 1) throw new BehaviourSpecError(part, `"${name}" must come first (later parts override it)`);
      if (name === 'all') Object.assign(spec, ALL_BEHAVIOURS);
      continue;
    }
    const known = NAMES[name];
    if (known === undefined) {
      throw new BehaviourSpecError(part, `unknown behaviour "${name}" (known: all, none, ${BEHAVIOUR_NAMES.join(', ')})`);
    }
    const rate = eq < 0 ? known.rate : parseRate(part, part.slice(eq + 1).trim());
    if (known.key === 'missingBars' && rate > MAX_MISSING_BARS) {
      throw new BehaviourSpecError(part, `missing-bars is at most ${MAX_MISSING_BARS}`);
    }
    spec[known.key] = rate;
  }
  return spec;
}

export function isBehaviourFree(spec: BehaviourSpec): boolean {
  return (Object.keys(NO_BEHAVIOURS) as (keyof BehaviourSpec)[]).every((k) => spec[k] === 0);
}

/** The canonical text of a spec (names in a fixed order, zero rates left out); '' when free. */
export function formatBehaviourSpec(spec: BehaviourSpec): string {
  return Object.entries(NAMES)
    .filter(([, { key }]) => spec[key] > 0)
    .map(([name, { key }]) => `${name}=${spec[key]}`)
    .join(',');
}

function parseRate(part: string, value: string): number {
  if (!/^(?:\d+(?:\.\d*)?|\.\d+)$/.test(value)) throw new BehaviourSpecError(part, `rate "${value}" is not a number`);
  const rate = Number(value);
  if (!(rate >= 0 && rate <= 1)) throw new BehaviourSpecError(part, `rate ${value} is outside 0..1`);
  return rate;
}
