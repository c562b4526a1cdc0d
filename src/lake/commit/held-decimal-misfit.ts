/**
 * A merge rewrites the rows a partition already holds in the sink's DECIMAL(p,s). Files written
 * before the sink's `decimal` was narrowed may hold values it cannot (a scale of 18 where the sink
 * keeps 6): the merge never rounds them, so the commit stops. Said as the value alone ("does not
 * fit DECIMAL(30,6)") it read as this run's data, and the generic hint (run the same command again)
 * failed the same way on every run. This names the lake's type and the two ways out.
 */
import type { Schema } from 'apache-arrow';
import { firstDecimal } from '../columns/decimal-type-of.js';
import type { DecimalType } from '../../core/decimal.js';
import { ConfigError, SinkError } from '../../core/errors.js';

const text = (t: DecimalType): string => `DECIMAL(${t.precision},${t.scale})`;

/** The type every held file's values fit (most integer digits, largest scale), or undefined when the sink's holds them all. */
function widerHeldType(schemas: readonly Schema[], sink: DecimalType): DecimalType | undefined {
  let integer = sink.precision - sink.scale;
  let scale = sink.scale;
  for (const schema of schemas) {
    const type = firstDecimal(schema.fields);
    if (type === undefined) continue;
    integer = Math.max(integer, type.precision - type.scale);
    scale = Math.max(scale, type.scale);
  }
  if (integer === sink.precision - sink.scale && scale === sink.scale) return undefined;
  return { precision: Math.min(38, integer + scale), scale };
}

/**
 * The error to raise for `error`, thrown while a merge of `partition` built its columns: a
 * ConfigError (exit 2) when a held file is of a type the sink's cannot hold, else `error` itself.
 */
export function heldDecimalMisfit(error: unknown, dataset: string, partition: string, held: readonly Schema[], sink: DecimalType): unknown {
  if (!(error instanceof SinkError)) return error;
  const wider = widerHeldType(held, sink);
  if (wider === undefined) return error;
  return new ConfigError(
    `${dataset}: ${partition} holds rows written as ${text(wider)} that the sink's ${text(sink)} cannot hold (${error.message}); a merge never rounds the rows already in the lake`,
    {},
    error,
    `set the sink's decimal to { precision: ${wider.precision}, scale: ${wider.scale} } (the lake's), or write ${text(sink)} to a new output; this commit was not made, so the next run fetches its rows again`,
  );
}
