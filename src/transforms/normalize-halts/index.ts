/**
 * normalize-halts: the three exchange layouts of trading-halt records → one `halt` schema with UTC
 * instants (exchange-local text kept beside them). See normalize-record.ts and local-time.ts for
 * the field mapping and the daylight-saving rule.
 */
import * as z from 'zod';
import type { Batch, Rejected, Transform, TransformResult } from '../../core/component.js';
import { DEFAULT_DECIMAL } from '../../core/decimal.js';
import { decimalTypeSchema } from '../../core/decimal-config.js';
import type { TransformDefinition } from '../../core/definition.js';
import type { HaltRow, RawHalt } from '../../core/records.js';
import { HALT_ZONES } from '../../core/wire.js';
import { isFieldError } from '../field-error.js';
import { rejectField } from '../reject-field.js';
import { fieldFailure } from '../../core/field-failure.js';
import { notAZone } from '../../core/iana-zone.js';
import { zoneOrThrow } from './local-time.js';
import { normalizeHalt, type HaltOptions } from './normalize-record.js';

const zoneName = z.string().refine((name) => {
  try {
    zoneOrThrow(name);
    return true;
  } catch {
    return false;
  }
}, { error: (issue) => notAZone(issue.input) });

export const normalizeHaltsConfigSchema = z.strictObject({
  /** Exchange-local zones (S2); override only if the service changes. */
  zones: z
    .strictObject({
      sse: zoneName.default(HALT_ZONES.sse),
      nyse: zoneName.default(HALT_ZONES.nyse),
      nasdaq: zoneName.default(HALT_ZONES.nasdaq),
    })
    .default({ ...HALT_ZONES })
    .describe('Exchange-local IANA zones of the record times (SSE\'s are Shanghai time, NYSE\'s and NASDAQ\'s New York time, with DST); override only if the service changes.'),
  /** Column type of pause_threshold_price. */
  decimal: decimalTypeSchema.default({ ...DEFAULT_DECIMAL }).describe('DECIMAL(precision, scale) of pause_threshold_price (default 38,18).'),
});

export type NormalizeHaltsConfig = z.infer<typeof normalizeHaltsConfigSchema>;

export class NormalizeHalts implements Transform<RawHalt, HaltRow> {
  constructor(readonly options: HaltOptions) {}

  apply(batch: Batch<RawHalt>): TransformResult<RawHalt, HaltRow> {
    const rows: HaltRow[] = [];
    const rejected: Rejected<RawHalt>[] = [];
    for (const record of batch.records) {
      // A record the source flagged (a token echoed into it) is rejected as it said.
      const out = record.flaw ? { field: record.flaw.field, value: record.flaw.value, failure: fieldFailure(record.flaw.code, record.flaw.reason) } : normalizeHalt(record, this.options);
      if (isFieldError(out)) rejected.push(rejectField(record, batch.stream, out.field, out.value, out.failure));
      else rows.push(out);
    }
    return { output: { ...batch, records: rows }, rejected };
  }
}

export function haltOptions(config: NormalizeHaltsConfig): HaltOptions {
  return {
    zones: { sse: zoneOrThrow(config.zones.sse), nyse: zoneOrThrow(config.zones.nyse), nasdaq: zoneOrThrow(config.zones.nasdaq) },
    decimal: { precision: config.decimal.precision, scale: config.decimal.scale },
  };
}

export const normalizeHalts: TransformDefinition<NormalizeHaltsConfig, RawHalt, HaltRow> = {
  kind: 'transform',
  type: 'normalize-halts',
  keepsNoRecords: true,
  summary: 'Map SSE, NYSE and NASDAQ halt layouts to one halt schema with UTC instants and the local text kept.',
  configSchema: normalizeHaltsConfigSchema,
  maps: { 'raw-halt': 'halt-row' },
  examples: [{}, { zones: { sse: 'Asia/Shanghai' } }],
  create(config) {
    return new NormalizeHalts(haltOptions(config));
  },
};
