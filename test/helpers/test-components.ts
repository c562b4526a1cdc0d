/** Test-only components: a deterministic counting source, a rejecting transform, in-memory sinks. */
import { z } from 'zod';
import type { Batch, CommitReceipt, Rejected, Sink } from '../../src/core/component.js';
import type { ComponentDefinition, SinkDefinition, SourceDefinition, TransformDefinition } from '../../src/core/definition.js';
import { ALL_RECORD_KINDS } from '../../src/core/record-kinds.js';

export interface Row {
  readonly stream: string;
  readonly i: number;
  readonly value: string;
}

export interface SourceProbe {
  /** Batches the source has produced so far. */
  produced: number;
  /** Called before each batch is yielded; may throw or abort. */
  beforeYield?: (stream: string, index: number) => Promise<void> | void;
  /** After beforeYield, end the read quietly once the run's signal is aborted (as a source may, instead of throwing). */
  endOnAbort?: boolean;
}

const counterConfig = z.object({
  streams: z.int().positive().default(1),
  batches: z.int().nonnegative(),
  rowsPerBatch: z.int().positive(),
  intervals: z.array(z.string()).default(['1m']),
  code: z.string().default('BTCUSDT'),
});
type CounterConfig = z.infer<typeof counterConfig>;

export function counterSource(probe: SourceProbe = { produced: 0 }): SourceDefinition<CounterConfig, Row> {
  return {
    kind: 'source',
    type: 'counter',
    summary: 'Counts rows in batches, per stream',
    configSchema: counterConfig,
    examples: [{ batches: 2, rowsPerBatch: 3 }],
    dataset: () => 'kline',
    emits: 'kline-row',
    lint: (c) =>
      c.intervals.flatMap((iv, i) =>
        c.code.endsWith('.US') && (iv === '2h' || iv === '4h')
          ? [{ path: ['intervals', i], message: `"${iv}" is not supported for stock code ${c.code}` }]
          : [],
      ),
    create: (config) => ({
      async *read(ctx, from) {
        for (let s = 0; s < config.streams; s++) {
          const stream = `counter/s${s}`;
          const start = Number(from.get(stream)?.position.next ?? 0);
          for (let b = start; b < config.batches; b++) {
            await probe.beforeYield?.(stream, b);
            if (probe.endOnAbort === true && ctx.signal.aborted) return;
            ctx.events.request('/counter');
            probe.produced++;
            const records: Row[] = [];
            for (let r = 0; r < config.rowsPerBatch; r++) {
              const i = b * config.rowsPerBatch + r;
              records.push({ stream, i, value: `v${i}` });
            }
            yield { stream, seq: b, records, checkpoint: { stream, position: { next: b + 1 } } };
          }
        }
      },
    }),
  };
}

const rejectConfig = z.object({ every: z.int().positive() });

/** Rejects every record whose `i` is a multiple of `every`. */
export const rejectEvery: TransformDefinition<z.infer<typeof rejectConfig>, Row, Row> = {
  kind: 'transform',
  type: 'reject-every',
  summary: 'Rejects every n-th record',
  configSchema: rejectConfig,
  maps: { 'kline-row': 'kline-row' },
  examples: [{ every: 3 }],
  create: (config) => ({
    apply(batch) {
      const keep: Row[] = [];
      const rejected: Rejected<Row>[] = [];
      for (const r of batch.records) {
        if (r.i % config.every === 0) {
          rejected.push({ record: r, reason: `value: ${r.value} is a multiple`, code: 'QL_TEST_MULTIPLE', field: 'value', value: r.value, stream: r.stream });
        } else keep.push(r);
      }
      return { output: { ...batch, records: keep }, rejected };
    },
  }),
};

/** What an in-memory sink shows: rows visible after commit, what is staged, calls made. */
export class MemoryStore<T = Row> {
  visible: T[] = [];
  staged: T[] = [];
  writes: Array<{ stream: string; seq: number; rows: number; checkpoint: boolean }> = [];
  commits = 0;
  aborts = 0;
  recovered = 0;
  closed = 0;
  /** Observed by the backpressure test when a write happens. */
  onWrite?: (batch: Batch<T>) => void;
}

export function memorySinkImpl<T>(store: MemoryStore<T>): Sink<T> {
  let flushed: T[] = [];
  return {
    async recover() {
      store.recovered++;
    },
    async write(batch) {
      store.onWrite?.(batch);
      store.writes.push({ stream: batch.stream, seq: batch.seq, rows: batch.records.length, checkpoint: batch.checkpoint !== undefined });
      store.staged.push(...batch.records);
    },
    async flush() {
      flushed.push(...store.staged);
      store.staged = [];
    },
    async commit(): Promise<CommitReceipt> {
      const rows = flushed.length;
      store.visible.push(...flushed);
      flushed = [];
      store.commits++;
      return { rows, files: rows > 0 ? [{ path: `mem/part-${store.commits}`, rows, bytes: rows * 10 }] : [] };
    },
    async abort() {
      store.staged = [];
      flushed = [];
      store.aborts++;
    },
    async close() {
      store.closed++;
    },
  };
}

export function memorySink(store: MemoryStore): SinkDefinition<Record<string, never>, Row> {
  return {
    kind: 'sink',
    type: 'memory',
    summary: 'Keeps rows in memory',
    configSchema: z.object({}),
    takes: ALL_RECORD_KINDS,
    examples: [{}],
    create: () => memorySinkImpl(store),
  };
}

export function testRegistry(parts: {
  probe?: SourceProbe;
  store?: MemoryStore;
}): ComponentDefinition[] {
  return [
    counterSource(parts.probe) as unknown as ComponentDefinition,
    rejectEvery as unknown as ComponentDefinition,
    memorySink(parts.store ?? new MemoryStore()) as unknown as ComponentDefinition,
  ];
}
