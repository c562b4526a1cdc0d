/**
 * The two components a slice runs through besides the pipeline's own: a sink that keeps the
 * fetched rows in memory (the fetch of a slice, which needs no lock), and a source that hands
 * those rows to the pipeline's real sink (the commit, under the lake lock). A slice is codes of one
 * interval over one partition within a request budget (group-slices.ts: at most 500 bars a
 * request), so its rows fit in memory.
 */
import * as z from 'zod';
import type { Batch, Sink, Source } from '../../core/component.js';
import type { SinkDefinition, SourceDefinition } from '../../core/definition.js';
import type { KlineRow } from '../../core/records.js';

export const CAPTURE_SINK = 'slice-capture';
export const ROWS_SOURCE = 'slice-rows';

/** Committed rows land in `into`; rows written and not committed are dropped on abort. */
export function captureSink(into: KlineRow[]): SinkDefinition<Record<string, never>, KlineRow> {
  return {
    kind: 'sink',
    type: CAPTURE_SINK,
    summary: 'Keeps a slice\'s rows in memory until its commit into the lake.',
    configSchema: z.strictObject({}),
    examples: [{}],
    takes: ['kline-row'],
    // A slice starts from nothing: it is a fixed range, not a resumable series.
    keepsState: () => false,
    create: (): Sink<KlineRow> => {
      let pending: KlineRow[] = [];
      return {
        write: async (batch: Batch<KlineRow>) => {
          pending.push(...batch.records);
        },
        flush: async () => undefined,
        commit: async () => {
          const rows = pending.length;
          into.push(...pending);
          pending = [];
          return { files: [], rows };
        },
        abort: async () => {
          pending = [];
        },
        close: async () => undefined,
      };
    },
  };
}

/**
 * The fetched rows of one or more slices, one batch per slice (`always`: a batch even with no rows,
 * so the run commits: diverted records ride on that commit).
 */
export function rowsSource(batches: readonly { readonly stream: string; readonly rows: readonly KlineRow[] }[], always = false): SourceDefinition<Record<string, never>, KlineRow> {
  return {
    kind: 'source',
    type: ROWS_SOURCE,
    summary: 'The rows slices fetched, handed to the pipeline\'s sink.',
    configSchema: z.strictObject({}),
    examples: [{}],
    dataset: () => 'kline',
    emits: 'kline-row',
    create: (): Source<KlineRow> => ({
      async *read() {
        let yielded = false;
        for (const b of batches) {
          if (b.rows.length === 0) continue;
          yielded = true;
          yield { stream: b.stream, seq: 0, records: b.rows };
        }
        if (!yielded && always && batches[0]) yield { stream: batches[0].stream, seq: 0, records: [] };
      },
    }),
  };
}
