/**
 * A reader of the Prometheus text exposition format, enough to check what quotelake writes: every
 * sample as name, labels and value, and the TYPE of every family. Strict on purpose: a line it
 * cannot read fails the test instead of being skipped.
 */

export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface Exposition {
  readonly samples: readonly Sample[];
  /** Family name → counter, gauge, histogram, ... */
  readonly types: ReadonlyMap<string, string>;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/y;

function parseValue(text: string): number {
  if (text === '+Inf') return Number.POSITIVE_INFINITY;
  if (text === '-Inf') return Number.NEGATIVE_INFINITY;
  // prom-client writes NaN as `Nan`; Prometheus reads it (Go's ParseFloat ignores the case of NaN).
  if (text.toLowerCase() === 'nan') return Number.NaN;
  const v = Number(text);
  if (Number.isNaN(v)) throw new Error(`not a sample value: ${text}`);
  return v;
}

function parseLabels(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const m = LABEL.exec(text);
    if (!m) throw new Error(`unreadable labels: {${text}}`);
    out[m[1]!] = m[2]!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
  }
  return out;
}

export function parseExposition(text: string): Exposition {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ')) continue;
    if (line.startsWith('# TYPE ')) {
      const [, , name, type] = line.split(' ');
      types.set(name!, type!);
      continue;
    }
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`unreadable exposition line: ${line}`);
    samples.push({ name: m[1]!, labels: parseLabels(m[2] ?? ''), value: parseValue(m[3]!) });
  }
  return { samples, types };
}

/** The samples of `name` whose labels include `match`. */
export function samplesOf(e: Exposition, name: string, match: Record<string, string> = {}): Sample[] {
  return e.samples.filter((s) => s.name === name && Object.entries(match).every(([k, v]) => s.labels[k] === v));
}

/** The one sample of `name` matching `match` (fails on none or several). */
export function valueOf(e: Exposition, name: string, match: Record<string, string> = {}): number {
  const found = samplesOf(e, name, match);
  if (found.length !== 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(match)}`);
  return found[0]!.value;
}

/** Sum of `name` by one label's values. */
export function sumBy(e: Exposition, name: string, label: string, match: Record<string, string> = {}): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of samplesOf(e, name, match)) {
    const key = s.labels[label] ?? '';
    out[key] = (out[key] ?? 0) + s.value;
  }
  return out;
}
