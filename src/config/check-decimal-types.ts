/**
 * The linter's check of decimal types across stages: every DECIMAL(p,s) a transform admits (its
 * `decimal`, and each `columns` override) must fit the sink's `decimal`. A narrower sink could only
 * reject those values at write time (it never wraps or rounds them), so a pair like parse-decimals
 * at 38,18 into a sink at 18,8 is refused here, at the sink's `decimal`, with the two ways to fix it.
 * Read from the configs' shape (config imports no component), after each stage passed its schema,
 * so defaults are filled in.
 */
import type { DecimalType } from '../core/decimal.js';
import type { LintFinding } from '../core/definition.js';

interface StageConfig {
  readonly type: string;
  readonly [key: string]: unknown;
}

export interface DecimalChain {
  readonly transforms: readonly StageConfig[];
  readonly sink: StageConfig;
  /** The decimal columns of the source's dataset, when known: overrides of other columns are ignored. */
  readonly columns?: readonly string[];
}

/**
 * A DECIMAL(p,s) that can exist (1 <= p <= 38, 0 <= s <= p), else undefined: a stage whose own
 * schema refused its type has said so already, and a fix built from it would be no type either.
 */
function asDecimalType(value: unknown): DecimalType | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { precision, scale } = value as Record<string, unknown>;
  if (typeof precision !== 'number' || typeof scale !== 'number') return undefined;
  const valid = Number.isInteger(precision) && Number.isInteger(scale) && precision >= 1 && precision <= 38 && scale >= 0 && scale <= precision;
  return valid ? { precision, scale } : undefined;
}

/** `inner` fits `outer` when it has no more fractional digits and no more integer digits. */
export function decimalTypeFits(inner: DecimalType, outer: DecimalType): boolean {
  return inner.scale <= outer.scale && inner.precision - inner.scale <= outer.precision - outer.scale;
}

const text = (t: DecimalType) => `{ precision: ${t.precision}, scale: ${t.scale} }`;
const name = (t: DecimalType) => `DECIMAL(${t.precision},${t.scale})`;

/** The most digits a DECIMAL holds (128 bits). */
const MAX_PRECISION = 38;

/** The narrowest type that holds both; its precision may pass 38, where no DECIMAL holds both. */
function union(a: DecimalType, b: DecimalType): DecimalType {
  const scale = Math.max(a.scale, b.scale);
  return { precision: Math.max(a.precision - a.scale, b.precision - b.scale) + scale, scale };
}

export function checkDecimalTypes(chain: DecimalChain): LintFinding[] {
  const sinkType = asDecimalType(chain.sink.decimal);
  if (sinkType === undefined) return [];
  const findings: LintFinding[] = [];
  chain.transforms.forEach((t, i) => {
    const admitted: { where: string; type: DecimalType }[] = [];
    const base = asDecimalType(t.decimal);
    if (base !== undefined) admitted.push({ where: 'decimal', type: base });
    const columns = t.columns;
    if (typeof columns === 'object' && columns !== null) {
      for (const [column, value] of Object.entries(columns)) {
        if (chain.columns !== undefined && !chain.columns.includes(column)) continue;
        const type = asDecimalType(value);
        if (type !== undefined) admitted.push({ where: `columns.${column}`, type });
      }
    }
    const misfits = admitted.filter((a) => !decimalTypeFits(a.type, sinkType));
    if (misfits.length === 0) return;
    const widest = misfits.map((m) => m.type).reduce(union, sinkType);
    const first = misfits[0]!;
    const why =
      first.type.scale > sinkType.scale
        ? `${first.type.scale} decimals where the sink keeps ${sinkType.scale}`
        : `${first.type.precision - first.type.scale} integer digits where the sink keeps ${sinkType.precision - sinkType.scale}`;
    const narrow = misfits.length === 1 && first.where === 'decimal' ? `transforms[${i}].decimal` : `transforms[${i}] ${misfits.map((m) => m.where).join(', ')}`;
    // Capping the union at 38 digits would offer the sink's own type back, or one that still drops
    // digits: past 38, narrowing the transform is the only fix.
    const widen =
      widest.precision <= MAX_PRECISION
        ? `Set sink decimal: ${text(widest)}, or narrow`
        : `No DECIMAL holds both (${widest.precision - widest.scale} integer digits and ${widest.scale} decimals need ${widest.precision} digits, ${MAX_PRECISION} at most): narrow`;
    findings.push({
      path: ['sink', 'decimal'],
      message:
        `${chain.sink.type} stores ${name(sinkType)} but transforms[${i}] ${t.type} admits ${name(first.type)} (${first.where}): ${why}, so such values could only be rejected. ` +
        `${widen} ${narrow} to at most ${text(sinkType)}`,
    });
  });
  return findings;
}
