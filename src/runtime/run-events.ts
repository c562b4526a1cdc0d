/**
 * The RunEvents a run hands to its components: counters for the manifest and the summary, and an
 * emitter progress bars can subscribe to.
 */
import type { CommittedFile, RunEvents } from '../core/component.js';

export type RowKind = 'received' | 'written' | 'merged' | 'rejected';

/** received = written + merged + rejected once every batch received is committed. */
export interface RowCounts {
  received: number;
  /** Rows new to the dataset. */
  written: number;
  /** Rows whose key the dataset already held (or held twice in one commit): they replaced a row. */
  merged: number;
  rejected: number;
  /**
   * Of the rows written or merged, those that carry a `flaw` key: a pipeline without a transform
   * rejects nothing, so a record its source found wrong is written, marked. Absent when none.
   */
  flawed?: number;
}

export interface RunEventsSnapshot {
  readonly requests: Readonly<Record<string, number>>;
  readonly rows: Readonly<Record<string, Readonly<RowCounts>>>;
  /** Requests per stream key, for the requests whose source named a stream. */
  readonly requestsByStream: Readonly<Record<string, number>>;
  /** Rows received per stream key (from each batch's stream). */
  readonly rowsByStream: Readonly<Record<string, number>>;
  readonly planned: Readonly<Record<string, number>>;
  /** Streams their source called done (streamDone), in the order it did. */
  readonly doneStreams: readonly string[];
  readonly notes: readonly string[];
  /** Series or codes delivered short (each shortfall is also a note, which may name several). */
  readonly shortfalls: number;
  /** Requests left today, when the client reported it. */
  readonly quotaLeft?: number;
  /** A source stopped short of its window at the daily quota. */
  readonly stoppedAtQuota: boolean;
  /** Files committed so far (data and diverted records), also when the run fails later. */
  readonly files: readonly CommittedFile[];
}

export interface RunEventMap {
  request: { endpoint: string; stream?: string; total: number };
  rows: { dataset: string; kind: RowKind; count: number; total: number };
  streamRows: { stream: string; count: number; total: number };
  planned: { stream: string; requests: number };
  streamDone: { stream: string };
  note: { message: string };
  quota: { left: number };
  /** Files a commit made visible (metrics count them as they land). */
  committed: { files: readonly CommittedFile[] };
}

export type RunEventName = keyof RunEventMap;

export interface RunEventsRecorder extends Required<RunEvents> {
  /** The client reports what is left of today's quota after each request. */
  quota(remaining: number): void;
  /** Files a commit made visible (the runtime calls it after each commit). */
  committed(files: readonly CommittedFile[]): void;
  /** A shortfall of a stream (see RunEvents.shortfall), for the runtime to keep once its checkpoint is committed. */
  shortfallOf(listener: (stream: string, message: string) => void): () => void;
  /** Rows committed with a `flaw` key (the runtime counts them; see RowCounts.flawed). */
  flawed(dataset: string, count: number): void;
  /** Rows received for one stream (the runtime knows each batch's stream; sources need not call this). */
  streamRows(stream: string, count: number): void;
  on<E extends RunEventName>(event: E, listener: (payload: RunEventMap[E]) => void): () => void;
  snapshot(): RunEventsSnapshot;
}

/** Notes are kept for the manifest, up to this many (a run that notes in a loop must not grow memory). */
const MAX_NOTES = 100;

export function createRunEvents(): RunEventsRecorder {
  const requests: Record<string, number> = {};
  const rows: Record<string, RowCounts> = {};
  const planned: Record<string, number> = {};
  const requestsByStream: Record<string, number> = {};
  const rowsByStream: Record<string, number> = {};
  const doneStreams = new Set<string>();
  const notes: string[] = [];
  const files: CommittedFile[] = [];
  let shortfalls = 0;
  let quotaLeft: number | undefined;
  let stoppedAtQuota = false;
  const listeners = new Map<RunEventName, Set<(payload: never) => void>>();
  const streamShortfalls = new Set<(stream: string, message: string) => void>();

  function emit<E extends RunEventName>(event: E, payload: RunEventMap[E]): void {
    for (const l of listeners.get(event) ?? []) {
      // A broken progress bar must not break the run.
      try {
        (l as (p: RunEventMap[E]) => void)(payload);
      } catch {
        /* ignored on purpose */
      }
    }
  }

  return {
    request(endpoint, stream) {
      requests[endpoint] = (requests[endpoint] ?? 0) + 1;
      if (stream !== undefined) requestsByStream[stream] = (requestsByStream[stream] ?? 0) + 1;
      emit('request', { endpoint, ...(stream !== undefined ? { stream } : {}), total: requests[endpoint] });
    },
    streamRows(stream, count) {
      rowsByStream[stream] = (rowsByStream[stream] ?? 0) + count;
      emit('streamRows', { stream, count, total: rowsByStream[stream] });
    },
    rows(dataset, kind, count) {
      const counts = (rows[dataset] ??= { received: 0, written: 0, merged: 0, rejected: 0 });
      counts[kind] += count;
      emit('rows', { dataset, kind, count, total: counts[kind] });
    },
    flawed(dataset, count) {
      if (count === 0) return;
      const counts = (rows[dataset] ??= { received: 0, written: 0, merged: 0, rejected: 0 });
      counts.flawed = (counts.flawed ?? 0) + count;
    },
    committed(list) {
      files.push(...list);
      if (list.length > 0) emit('committed', { files: list });
    },
    planned(stream, n) {
      planned[stream] = n;
      emit('planned', { stream, requests: n });
    },
    streamDone(stream) {
      doneStreams.add(stream);
      emit('streamDone', { stream });
    },
    note(message) {
      if (notes.length < MAX_NOTES) notes.push(message);
      emit('note', { message });
    },
    shortfall(message, count = 1, stream) {
      shortfalls += count;
      this.note(message);
      if (stream !== undefined) for (const l of streamShortfalls) l(stream, message);
    },
    shortfallOf(listener) {
      streamShortfalls.add(listener);
      return () => streamShortfalls.delete(listener);
    },
    quota(left) {
      quotaLeft = left;
      emit('quota', { left });
    },
    stoppedAtQuota() {
      stoppedAtQuota = true;
    },
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener as (payload: never) => void);
      return () => set.delete(listener as (payload: never) => void);
    },
    snapshot() {
      const rowCopy: Record<string, RowCounts> = {};
      for (const [k, v] of Object.entries(rows)) rowCopy[k] = { ...v };
      return {
        requests: { ...requests },
        rows: rowCopy,
        requestsByStream: { ...requestsByStream },
        rowsByStream: { ...rowsByStream },
        planned: { ...planned },
        doneStreams: [...doneStreams],
        notes: [...notes],
        shortfalls,
        stoppedAtQuota,
        files: [...files],
        ...(quotaLeft !== undefined ? { quotaLeft } : {}),
      };
    },
  };
}
