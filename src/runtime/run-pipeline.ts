/**
 * The run loop: source → transforms → sink, pulled one batch at a time so the source never gets
 * ahead of the sink. Commits the sink and then saves checkpoints every N batches / M ms and at the
 * end: data first, state second, so a killed run loses at most one commit interval.
 */
import { resolve } from 'node:path';
import { setMaxListeners } from 'node:events';
import type { Writable } from 'node:stream';
import type { Batch, Checkpoint, CommittedFile, Logger, Rejected, RunContext, Sink, Source, Transform } from '../core/component.js';
import type { ComponentEnv, SinkDefinition, SourceDefinition, TransformDefinition } from '../core/definition.js';
import { systemClock, type Clock } from '../core/clock.js';
import { checkServiceClient } from '../core/service-client-check.js';
import { checkRunOptions } from './check-run-options.js';
import { outputOfStorage } from './output-of-storage.js';
import { ConfigError, CoordinatorDownError, OutputClosedError, QuotelakeError, RejectedRecordError, StateConflictError } from '../core/errors.js';
import { validatePipeline } from '../config/parse-pipeline.js';
import { namedOutput, type ComponentConfig, type Pipeline, type PipelineInput, type Registry } from '../config/pipeline-schema.js';
import { CheckpointStore } from './checkpoint-store.js';
import { savedCheckpoints } from './saved-checkpoints.js';
import type { LastWords } from './last-words.js';
import { checkpointSink } from './checkpoint-sink.js';
import { isLook, keepsState, resumptionOf } from './keeps-state.js';
import { silentLogger, withFields } from '../core/log-helpers.js';
import { createRunEvents, type RunEventsRecorder, type RunEventsSnapshot } from './run-events.js';
import { createRunId } from './run-id.js';
import { shortfallsAtWarn } from './shortfall-warnings.js';
import { ShortfallLedger, unfinishedShortfalls } from './committed-shortfalls.js';
import { markInterruptedRuns, writeRunManifest, type RunManifest, type RunStatus } from './run-manifest.js';
import { startRunningRecord, type EveryTimer, type RunningRecord } from './running-record.js';
import { rechunk } from './rechunk.js';
import { acquireRunLock, type RunLock } from './run-lock.js';
import { refuseSinkOnObjectStore } from './object-store-refusal.js';
import { stateFolder, stateLocationFor } from './state-location.js';
import type { LakeStorage } from '../lake/storage/lake-storage.js';
import { describeMigration, ensureLakeId, ensureLayout, readLakeId, recordLayout, removeStaleLayoutTemps } from '../lake/layout/index.js';
import { checkOutputDir } from '../lake/check-output-dir.js';
import { checkPipelinePathRoom } from './pipeline-path-room.js';
import { checkOutputPlacement, checkRemoteOutputPlacement, checkStateDirPlacement } from './state-dir-placement.js';
import { STAGING_DIR } from '../lake/lake-paths.js';
import { localStorage } from '../lake/storage/local-storage.js';
import type { LakeLocation } from '../lake/storage/storage-of.js';
import { checkOutputStorage } from '../lake/check-output-storage.js';
import { safeFileToken } from '../lake/partition-path.js';
import { removeStaleScratch } from '../lake/commit/local-scratch.js';
import { removeStaleProbes } from '../lake/stale-probes.js';
import { existingTableKind } from '../lake/delta/table-kind.js';
import { DEFAULT_LEASE_MS } from './lake-lease.js';
import { stateDirFor } from '../config/resolve-settings.js';
import { stateResetCommand } from './state-reset-command.js';
import { isS3Url } from '../core/s3-url.js';
import { REJECTED_DIR, RejectedWriter } from '../lake/rejected-writer.js';
import { heldKeys } from '../lake/held-keys.js';
import { finishPendingCommits, pendingJournals } from '../lake/commit/commit-journal.js';
import { adoptFinishedCommits, landedJournals, runJournalNote } from './finished-commits.js';
import { laneOf } from '../core/lazy-rows.js';

/** The output's storage: the one given, else the local folder; an s3:// output needs one given. */
function outputStorage(outputDir: string, given: LakeStorage | undefined): LakeStorage {
  if (given !== undefined) return given;
  if (isS3Url(outputDir)) throw new ConfigError(`output ${outputDir}: an s3:// output needs its storage (RunOptions.storage from openS3Lake; the CLI builds it from --s3-endpoint and the AWS chain)`);
  return localStorage(outputDir);
}

/** An output that is not a local folder (an object store). */
function isRemote(storage: LakeStorage): boolean {
  return storage.localPath(STAGING_DIR) === undefined;
}

/** What an aborted run keeps, by whether the next run goes on from it. */
const ABORTED_TEXT = {
  resumed: 'run aborted; committed work is kept and the next run resumes from it',
  'no-state': 'run aborted; the rows written so far are kept, and the next run delivers the whole window again (this output keeps no state)',
  polling: 'run aborted; the rounds committed are kept, and the next run takes all its rounds anew (a polling run is not resumed)',
} as const;

/** Where `onReject: divert` sends records (RejectedWriter of src/lake has this shape). */
export interface RejectedOutput {
  recover?(ctx: RunContext): Promise<void>;
  write(dataset: string, rejected: readonly Rejected[], ctx: RunContext): Promise<void>;
  /** Makes what was written visible; called right after the data commit. */
  commit(ctx: RunContext): Promise<readonly CommittedFile[]>;
  abort(ctx: RunContext): Promise<void>;
}

export interface RunOptions {
  /** The component definitions to build the pipeline from (the real one: `components` of src/components.ts). */
  readonly registry: Registry;
  /** Resolved settings win over the pipeline file (see resolveSettings). */
  readonly outputDir?: string;
  /**
   * Where the output lives when it is not the local folder `outputDir`: an object store for an
   * `s3://` output (`openS3Lake`; the CLI builds it from its flags and the AWS chain, and destroys its client).
   * The run's state then lives in the lake under `_quotelake/state/` unless a local stateDir is
   * given (I5), and the output lock is the lake's lease.
   */
  readonly storage?: LakeStorage;
  readonly stateDir?: string;
  readonly stdout?: Writable;
  /** The service client handed to sources. */
  readonly client?: unknown;
  /** The CLI wires SIGINT/SIGTERM to it. */
  readonly signal?: AbortSignal;
  /**
   * Where the run adds what it writes if its process is ended at once (the CLI's second signal):
   * its record marked `interrupted`. Without it, the next run on the output marks the record.
   */
  readonly lastWords?: LastWords;
  /**
   * Where the run's log lines go. Default: nowhere (a library prints nothing of its own accord);
   * the CLI passes createLogger() writing to stderr, and so can any caller who wants the lines.
   */
  readonly logger?: Logger;
  readonly events?: RunEventsRecorder;
  readonly clock?: Clock;
  /** What a lake's lease on an object store counts its expiry by: real time unless a test injects one. */
  readonly leaseClock?: Clock;
  readonly runId?: string;
  /**
   * Fetch again from `since`, as if nothing were held (`run --full-refresh`). The saved checkpoints
   * are not deleted up front: each stream's is replaced by the first commit that covers it, so a
   * run killed half-way leaves old positions for the streams it did not reach and new ones for those
   * it did, both usable.
   */
  readonly fullRefresh?: boolean;
  /** Builds the writer of diverted records (`onReject: divert`); default: RejectedWriter under `<output>/_rejected/`. */
  readonly createRejectedWriter?: (output: LakeLocation) => RejectedOutput;
  /**
   * The timer that refreshes the run record between commits (RUNNING_RECORD_EVERY_MS, real time,
   * unref'd). Tests pass one they tick themselves.
   */
  readonly recordTimer?: EveryTimer;
}

export interface RunResult {
  readonly runId: string;
  /** 'succeeded' once the source ended; check `shortfalls` before taking that as "all that was asked". */
  readonly status: 'succeeded' | 'aborted';
  /** Where its run record is; none for a look, which leaves none. */
  readonly manifestPath: string | undefined;
  readonly manifest: RunManifest;
  /**
   * Series the service delivered less of than asked (codes it left out, pages missing beyond its
   * count, bars it never sent): the CLI's exit 4. 0 is a complete run.
   */
  readonly shortfalls: number;
  /** What the sources said of the run (the summary's notes): each shortfall's reason among them. */
  readonly notes: readonly string[];
  /**
   * The daily request quota ran out and the run stopped there (the CLI's exit 75): status is still
   * `succeeded` and the commits are kept, but series were left short; the next run after the reset
   * goes on from them (`notes` says when).
   */
  readonly stoppedAtQuota: boolean;
}

/** The client's redaction of its tokens (ServiceClient.redact), when it has one: the runtime knows the client only as a value it hands on. */
function redactorOf(client: unknown): ((text: string) => string) | undefined {
  const redact = (client as { redact?: unknown } | null | undefined)?.redact;
  return typeof redact === 'function' ? (text) => (redact as (t: string) => string).call(client, text) : undefined;
}

type Step<T> = { kind: 'next'; result: IteratorResult<Batch<T>> } | { kind: 'aborted' };

function abortPromise(signal: AbortSignal): { promise: Promise<'aborted'>; dispose: () => void } {
  let dispose = () => undefined as void;
  const promise = new Promise<'aborted'>((resolve) => {
    if (signal.aborted) return resolve('aborted');
    const onAbort = () => resolve('aborted');
    signal.addEventListener('abort', onAbort, { once: true });
    dispose = () => signal.removeEventListener('abort', onAbort);
  });
  return { promise, dispose };
}

function withoutType(config: ComponentConfig): Record<string, unknown> {
  const { type: _type, ...rest } = config;
  return rest;
}

/**
 * The fields of the `run-end` line. A run that succeeded may still have ended short of what it
 * was asked (`shortfalls`, exit 4) or at the daily quota (`stoppedAtQuota`, exit 75): both are said,
 * so a reader of the log alone does not take it for a whole run.
 */
function runEnd(m: RunManifest, manifestPath?: string, ended: { readonly shortfalls?: number; readonly stoppedAtQuota?: boolean } = {}): Record<string, unknown> {
  const rows = Object.values(m.rows).reduce(
    (a, r) => ({ received: a.received + r.received, written: a.written + r.written, merged: a.merged + (r.merged ?? 0), rejected: a.rejected + r.rejected }),
    { received: 0, written: 0, merged: 0, rejected: 0 },
  );
  const flawed = Object.values(m.rows).reduce((a, r) => a + (r.flawed ?? 0), 0);
  return {
    event: 'run-end',
    status: m.status,
    durationMs: m.finishedAt ? Date.parse(m.finishedAt) - Date.parse(m.startedAt) : undefined,
    requests: Object.values(m.requests).reduce((a, b) => a + b, 0),
    commits: m.commits,
    files: m.filesCommitted.length,
    ...rows,
    ...(flawed > 0 ? { flawed } : {}),
    ...(ended.shortfalls ? { shortfalls: ended.shortfalls } : {}),
    ...(ended.stoppedAtQuota === true ? { stoppedAtQuota: true } : {}),
    ...(manifestPath ? { manifest: manifestPath } : {}),
  };
}

/** How many of `records` carry a `flaw` key: records their source found wrong, written as they are. */
function flawedOf(records: readonly unknown[]): number {
  let n = 0;
  for (const r of records) if (r !== null && typeof r === 'object' && (r as { flaw?: unknown }).flaw !== undefined) n++;
  return n;
}

function errorSummary(error: unknown): { code: string; message: string } {
  if (error instanceof QuotelakeError) return { code: error.code, message: error.message };
  return { code: 'QL_INTERNAL', message: error instanceof Error ? error.message : String(error) };
}

/** Requests and rows received per stream key, sorted by key. */
function perStream(snap: RunEventsSnapshot): Record<string, { requests: number; rows: number }> {
  const keys = [...new Set([...Object.keys(snap.requestsByStream), ...Object.keys(snap.rowsByStream)])].sort();
  return Object.fromEntries(keys.map((k) => [k, { requests: snap.requestsByStream[k] ?? 0, rows: snap.rowsByStream[k] ?? 0 }]));
}

/** What a look holds: nothing, so nothing to lose or release. */
const NO_LOCK: RunLock = { path: '', enforced: true, assertHeld: () => undefined, release: async () => undefined };

export async function runPipeline(input: Pipeline | PipelineInput, options: RunOptions): Promise<RunResult> {
  // Before anything is touched: a wrong option must not leave a layout or a run record behind.
  checkRunOptions(options);
  const pipeline = validatePipeline(input, { registry: options.registry });
  const clock = options.clock ?? systemClock;
  // A lost lease (another host took the lake over) stops the run like a signal, before its next commit.
  const leaseLost = new AbortController();
  const outer = options.signal ?? new AbortController().signal;
  const signal = AbortSignal.any([outer, leaseLost.signal]);
  setMaxListeners(0, outer);
  // Every request in flight and every wait for the rate limit listens to the run's signal: their
  // number follows the streams fetched at once (a dozen is common), it does not grow over time, so
  // Node's warning at 11 listeners would only be noise on the terminal.
  setMaxListeners(0, signal);
  const events = options.events ?? createRunEvents();
  const runId = options.runId ?? createRunId(new Date(clock.now()));
  // Every line of the run names it: the runId and the pipeline (stable fields of the JSON lines).
  const logger = withFields(options.logger ?? silentLogger, { runId, pipeline: pipeline.name });
  const output = options.outputDir ?? namedOutput(pipeline);
  // A lake's storage given (openS3Lake) is the output: a different outputDir would be named but not written.
  const outputDir = options.storage !== undefined && isRemote(options.storage) ? outputOfStorage(options.storage.root, output) : (output ?? 'output');
  const stateSetting = options.stateDir ?? pipeline.options.stateDir;
  const state = options.storage !== undefined ? stateLocationFor(options.storage, stateSetting) : stateFolder(stateSetting ?? stateDirFor(outputDir));
  const stateDir = state.where;
  // What a refusal over the checkpoints tells the user to type: it must reach these, not output/'s.
  const resetCommand = stateResetCommand(pipeline.name, outputDir, stateDir, options.storage?.endpoint);
  const storage = outputStorage(outputDir, options.storage);
  // A remote output has no folder of ours: the lake goes through `storage`.
  const lake: LakeLocation = options.storage ?? outputDir;
  const opts = pipeline.options;

  const sourceDef = options.registry.find((d) => d.kind === 'source' && d.type === pipeline.source.type) as
    | SourceDefinition
    | undefined;
  const sinkDef = options.registry.find((d) => d.kind === 'sink' && d.type === pipeline.sink.type) as SinkDefinition | undefined;
  if (!sourceDef || !sinkDef) throw new ConfigError(`pipeline ${pipeline.name}: source or sink type is not registered`);
  // A refusal for a missing argument leaves the output as it was: no layout, lake id or run record.
  if (sourceDef.needsClient === true) checkServiceClient(options.client, pipeline.source.type);
  // Before the lease, the probe and the run record: a refused sink leaves the lake untouched.
  refuseSinkOnObjectStore(pipeline, options.registry, outputDir, isRemote(storage));
  const transformDefs = pipeline.transforms.map((t) => {
    const def = options.registry.find((d) => d.kind === 'transform' && d.type === t.type) as TransformDefinition | undefined;
    if (!def) throw new ConfigError(`pipeline ${pipeline.name}: transform "${t.type}" is not registered`);
    // A transform that may keep the records (a user's own) and read them after the sink handed their
    // page back for reuse (partitioned-sink.ts, tookPage): its batches' pages are pinned first.
    return { def, config: withoutType(t), pins: def.keepsNoRecords !== true };
  });

  const sourceConfig = withoutType(pipeline.source);
  const dataset = sourceDef.dataset(sourceConfig);
  const env: ComponentEnv = {
    outputDir,
    stateDir,
    ...(options.storage !== undefined ? { storage } : {}),
    pipeline: pipeline.name,
    stdout: options.stdout ?? process.stdout,
    ...(options.client !== undefined ? { client: options.client } : {}),
    heldKeys: (name) => heldKeys(storage, name),
  };
  const ctx: RunContext = { runId, signal, logger, events: shortfallsAtWarn(events, logger), clock };
  // Shortfalls of a stream hold for good once its checkpoint is committed: the run record keeps them.
  const ledger = new ShortfallLedger(runId);
  events.shortfallOf((stream, message) => ledger.onSaid(stream, message));
  // The runtime is the one counter of rows (received, written at commit, rejected); sinks and the
  // rejected writer get a context whose rows() does nothing, so nothing is counted twice.
  const quietCtx: RunContext = { ...ctx, events: { ...ctx.events, rows: () => undefined } };
  // A stateless run (an NDJSON look) neither resumes nor moves the watermark: every run delivers its window.
  const keepState = keepsState(pipeline, options.registry);
  // A look writes nothing into the output: it neither locks nor recovers it, and leaves no run record
  // there (a run of the same pipeline into it would take that record for a killed run of its own).
  const look = isLook(pipeline, options.registry);
  const startedAt = new Date(clock.now()).toISOString();
  const files: CommittedFile[] = [];
  let commits = 0;
  let rejectedTotal = 0;
  /** Diverted records the rejected writer holds until the next commit (written after the data): a failed run never writes them. */
  let rejectedHeld = 0;

  const manifest = (status: RunStatus, error?: unknown): RunManifest => {
    const snap = events.snapshot();
    return {
      version: 1,
      runId,
      pipeline: pipeline.name,
      startedAt,
      ...(status !== 'running' ? { finishedAt: new Date(clock.now()).toISOString() } : {}),
      status,
      requests: snap.requests,
      rows: { [dataset]: { received: 0, written: 0, merged: 0, rejected: 0 }, ...snap.rows },
      streams: perStream(snap),
      commits,
      filesCommitted: [...files],
      rejected: rejectedTotal,
      ...(snap.quotaLeft !== undefined ? { quotaLeft: snap.quotaLeft } : {}),
      ...(ledger.committed().length > 0 ? { shortfallsCommitted: ledger.committed() } : {}),
      ...(snap.stoppedAtQuota ? { stoppedAtQuota: true as const } : {}),
      ...(error !== undefined ? { error: errorSummary(error) } : {}),
    };
  };

  /** What a killed run left in the output and its state folder: removed by the run that holds the output now. */
  const recoverOutput = async (store: CheckpointStore): Promise<void> => {
    const layoutTemps = await removeStaleLayoutTemps(lake);
    if (layoutTemps > 0) logger.info('removed temp files of the layout file a killed run left', { event: 'recovery', action: 'layout-temp-removed', files: layoutTemps });
    // Clean what a killed run left: its state temp files, its manifest, then the sinks' staging.
    const staleState = await store.cleanStale();
    if (staleState.length > 0) logger.info('removed temp files a killed run left in the state folder', { event: 'recovery', action: 'state-temp-removed', files: staleState.length });
    // A run killed on this host before it staged anything left its local scratch folder (files
    // before upload, spills) where no staging names it: its run id does.
    const removeScratch = async (runIds: string[]) => (isRemote(storage) ? removeStaleScratch(storage, runIds.map(safeFileToken)) : undefined);
    // The output's own state (`<output>/.state`, or the lake's `_quotelake/state/`) records only
    // runs on this output, which we hold: every one still `running`, of any pipeline, is dead.
    const ownState = state.prefix !== '' || (state.dir !== undefined && resolve(state.dir) === resolve(stateDirFor(outputDir)));
    const interrupted = await markInterruptedRuns(state, ownState ? undefined : pipeline.name, new Date(clock.now()), removeScratch);
    // A warning, not info: the operator should know a run died (and a scheduler may be killing it).
    if (interrupted.length > 0) logger.warn('earlier run was interrupted; its pipeline resumes from its last commit', { event: 'recovery', action: 'interrupted-run-resumed', runs: interrupted });
    if (isRemote(storage)) {
      // The store stamps a probe with real time, so its age is judged as the lease's is: a run's
      // shifted clock (--clock) would keep every probe, or take a contender's in flight.
      const probes = await removeStaleProbes(storage, (options.leaseClock ?? systemClock).now(), DEFAULT_LEASE_MS);
      if (probes > 0) logger.info('removed probe objects a killed run left', { event: 'recovery', action: 'probes-removed', objects: probes });
    }
  };

  /** What killed runs left staged in the output: finished or removed, before this run stages anything. */
  const recoverSinks = async (sink: Sink<unknown>, rejectedSink: RejectedOutput | undefined, store: CheckpointStore | undefined): Promise<void> => {
    // The decided commits there are now: each is finished below (or undone, on a Delta conflict).
    const decided = store !== undefined ? await pendingJournals(storage, undefined, { readOnly: true }) : [];
    // A killed run of this pipeline whose commit was finished here never saved its checkpoints:
    // they move to what the commit holds, so the pipeline asks only for what is missing. Also when
    // a later step of the recovery fails (a table of the other kind, say): the commit has landed.
    const adoptLanded = async (): Promise<void> => {
      if (store === undefined) return;
      const landed = await landedJournals(storage, decided);
      for (const c of await adoptFinishedCommits(landed, async (name) => (name === store.pipeline ? store : undefined), state, { runId, now: new Date(clock.now()), assertHeld: () => lock.assertHeld() })) {
        const text = `finished the commit of interrupted run ${c.runId}: ${c.rows.toLocaleString('en-US')} ${c.dataset} rows new${c.merged > 0 ? ` (+ ${c.merged.toLocaleString('en-US')} merged)` : ''} in ${c.files} file${c.files === 1 ? '' : 's'}, now counted in its run record; ${c.streams > 0 ? `its checkpoints (${c.streams} stream${c.streams === 1 ? '' : 's'}) were saved, so the pipeline resumes after them instead of fetching those rows again` : 'it moved no checkpoint (as a worker\'s slices do not), so none was saved'}`;
        logger.info(text, { event: 'recovery', action: 'checkpoints-of-finished-commit', journalRun: c.runId, dataset: c.dataset, rows: c.rows, merged: c.merged, files: c.files, streams: c.streams });
        events.note(text);
      }
    };
    try {
      await sink.recover?.(quietCtx);
      await rejectedSink?.recover?.(quietCtx);
      // We hold the output lock, so no staging belongs to a live run. Decided commits of other
      // datasets and formats (a killed run of another pipeline on this output) are finished too;
      // then whatever is left there (e.g. a half-written journal) is garbage. Through the storage
      // interface (an object store has no folders): the backend drops the emptied `_quotelake/`
      // folder itself, as the rmdir here used to.
      const others = await finishPendingCommits(storage, () => lock.assertHeld());
      for (const journal of others.finished) {
        logger.info('finished a commit a killed run of another pipeline had decided (journal replayed)', { event: 'recovery', action: 'journal-replayed', dataset: journal.dataset, format: journal.format, journalRun: journal.runId, files: journal.add.length });
      }
      for (const journal of others.undone) {
        logger.warn(`dropped a commit a killed run of another pipeline had decided: ${journal.dataset}'s Delta log moved on since; that pipeline's next run fetches its rows again`, { event: 'recovery', action: 'journal-undone', dataset: journal.dataset, format: journal.format, journalRun: journal.runId });
      }
      await storage.deletePrefix(`${STAGING_DIR}/`);
    } catch (error) {
      // The recovery's own error is the one to report; the adoption is tried again by the next start only if its journal is still there.
      await adoptLanded().catch(() => undefined);
      throw error;
    }
    await adoptLanded();
  };

  // Held from before runLocked to its end; a look has none to hold.
  let lock: RunLock = NO_LOCK;
  /** The run record kept current between commits; a look leaves none. */
  let record: RunningRecord | undefined;
  /** False once the lake's lease is lost: the record is then the new holder's to mark. */
  const holdsLake = (): boolean => {
    if (leaseLost.signal.aborted) return false;
    try {
      lock.assertHeld();
      return true;
    } catch {
      return false;
    }
  };
  /** Withdraws the hard stop's mark: from the final record on, the record says how the run ended. */
  let withdrawLastWords = (): void => undefined;
  const startRecord = (): RunningRecord =>
    startRunningRecord({
      write: () => writeRunManifest(state, manifest('running')),
      onChange: (changed) => {
        const offs = (['request', 'rows', 'streamRows', 'quota'] as const).map((name) => events.on(name, changed));
        return () => offs.forEach((off) => off());
      },
      // A run that lost the lake's lease leaves the state to the holder, which marks this run interrupted.
      mayRefresh: holdsLake,
      onError: (error) => logger.debug('run record not refreshed; the next refresh or commit writes it', { event: 'run-record', error: errorSummary(error).message }),
      ...(options.recordTimer !== undefined ? { every: options.recordTimer } : {}),
    });
  const runLocked = async (): Promise<RunResult> => {
    // What commits and aborts are given: the lease, checked between a commit's steps (a run paused
    // mid-commit stops at its next one; one that lost it leaves what it left to the new holder).
    const leased: RunContext = { ...quietCtx, lease: lock };
    const tiedToLake = sinkDef.writesLake === true && keepState;
    // A new output whose state folder holds another lake's checkpoints is refused before its layout
    // (and so its id) is written: a refused run leaves no lake behind.
    if (tiedToLake && (await readLakeId(lake)) === null) await savedCheckpoints(new CheckpointStore(state, pipeline.name, checkpointSink(pipeline.sink), { id: null, where: outputDir }, resetCommand), options.fullRefresh === true);
    // The layout first, before any sink recovers: a 0.1.0 lake (or an interrupted migration) is
    // migrated here, a lake of a newer layout is refused before anything in it is touched.
    const migration = look ? undefined : await ensureLayout(lake, { now: new Date(clock.now()) });
    if (migration) logger.warn(describeMigration(migration), { event: 'recovery', action: 'layout-migrated', output: outputDir });
    // Checkpoints of a lake sink are tied to the lake: a state folder another output uses is refused at load.
    const lakeTie = tiedToLake ? { id: await ensureLakeId(lake, new Date(clock.now())), where: outputDir } : undefined;
    const store = new CheckpointStore(state, pipeline.name, checkpointSink(pipeline.sink), lakeTie, resetCommand);
    if (!look) {
      await recoverOutput(store);
      await writeRunManifest(state, manifest('running'));
      const running = (record = startRecord());
      // Ended at once, the run says so itself (with the counts it had) instead of leaving `running`.
      withdrawLastWords =
        options.lastWords?.add(async () => {
          await running.stop();
          if (holdsLake()) await writeRunManifest(state, manifest('interrupted'));
        }) ?? withdrawLastWords;
    }
    logger.info('run started', {
      event: 'run-start',
      source: pipeline.source.type,
      sink: pipeline.sink.type,
      dataset,
      output: outputDir,
      stateDir,
      keepState,
    });

    let source: Source<unknown>;
    let transforms: Transform<unknown, unknown>[];
    let sink: Sink<unknown>;
    let rejectedSink: RejectedOutput | undefined;
    try {
      source = sourceDef.create(sourceConfig, env);
      transforms = transformDefs.map(({ def, config }) => def.create(config, env));
      // A dataset keeps its kind without the flag: on an object store only a read can tell it; in a
      // folder too once the log is gone (the manifest records a Delta table: the sink refuses it).
      const tableKind = sinkDef.writesLake === true ? await existingTableKind(storage, dataset) : undefined;
      sink = sinkDef.create(withoutType(pipeline.sink), { ...env, dataset, ...(tableKind !== undefined ? { tableKind } : {}) });
      if (opts.onReject === 'divert') {
        const redact = redactorOf(options.client);
        rejectedSink = (options.createRejectedWriter ?? ((where: LakeLocation) => new RejectedWriter(where, redact, look)))(lake);
      }
    } catch (error) {
      // The record says how the run ended from here on: a hard stop now must not mark it interrupted.
      withdrawLastWords();
      await record?.stop();
      if (!look) await writeRunManifest(state, manifest('failed', error)).catch(() => undefined);
      throw error;
    }

    let iterator: AsyncIterator<Batch<unknown>> | undefined;
    let inFlight = false;
    // Rows the sink took since the last commit: split at commit into new and merged (CommitReceipt.merged).
    let handed = 0;
    // Of them, those with a `flaw` key: only a pipeline without a transform hands such records on
    // (parse-decimals rejects them), and only there are its records read for it (no lane to undo).
    let handedFlawed = 0;
    const countsFlaws = transforms.length === 0;
    try {
      if (!look) await recoverSinks(sink, rejectedSink, keepState ? store : undefined);

      // What is saved at each commit (the old file, updated stream by stream) and where the source
      // starts: the same on a normal run, nothing on a full refresh.
      const saved = keepState ? await savedCheckpoints(store, options.fullRefresh === true) : { committed: new Map<string, Checkpoint>() };
      const committed = saved.committed;
      if (saved.damaged !== undefined) {
        logger.warn(`full refresh: ${saved.damaged.message}; the run does not need it, and its first commit replaces it (until then the file stays as it was)`, { event: 'recovery', action: 'damaged-checkpoint-replaced', path: store.path });
      }
      const startFrom = options.fullRefresh === true ? new Map<string, Checkpoint>() : new Map(committed);
      const gone = startFrom.size > 0 ? await sink.missingHeld?.() : undefined;
      if (gone !== undefined) {
        throw new StateConflictError(
          `the checkpoints of pipeline "${pipeline.name}" say ${startFrom.size === 1 ? '1 stream is' : `${startFrom.size} streams are`} held up to where they stopped, but ${gone}: a run that resumed would write only what is new and leave everything before it out`,
          store.path,
          `run the pipeline again with --full-refresh, which fetches the whole window again (or forget its checkpoints: "${resetCommand}")`,
        );
      }
      if (keepState && !look && options.fullRefresh !== true) {
        // What a run that did not finish committed short is this run's to say (exit 4), at its end:
        // first this run's record holds the list, then the older records say who took it over.
        const carried = await unfinishedShortfalls(state, pipeline.name, runId, committed);
        if (carried.list.length > 0) {
          ledger.carry(carried.list);
          await writeRunManifest(state, manifest('running'));
          await carried.handOver();
        }
      }
      if (options.fullRefresh === true && committed.size > 0) {
        logger.info('full refresh: fetching from the start; the saved checkpoints are replaced stream by stream as commits land', { streams: committed.size });
      }
      const pending = new Map<string, Checkpoint>();
      const seqs = new Map<string, number>();
      const warnedCodes = new Set<string>();
      let batchesSinceCommit = 0;
      let lastCommitAt = clock.now();
      const commit = async (): Promise<void> => {
        // Never commit into a lake another run has taken over (its lease was lost or ran out).
        lock.assertHeld();
        // Data first, then the diverted records, then the state that says both are in.
        await sink.flush(quietCtx);
        // The journal carries the checkpoints this commit covers: a run killed before it saves them
        // leaves them to the run that finishes its commit. Not with records diverted since the last
        // commit, committed after the data: a kill in between loses them, so those batches must be fetched again.
        const receipt = await sink.commit(keepState && rejectedHeld === 0 ? { ...leased, journalNote: { ...runJournalNote(runId, store, new Map([...committed, ...pending])) } } : leased);
        files.push(...receipt.files);
        events.committed(receipt.files);
        if (receipt.merged !== undefined) {
          const merged = Math.min(receipt.merged, handed);
          events.rows(dataset, 'written', handed - merged);
          events.rows(dataset, 'merged', merged);
        } else {
          events.rows(dataset, 'written', receipt.rows);
        }
        events.flawed(dataset, handedFlawed);
        handed = 0;
        handedFlawed = 0;
        const diverted = rejectedSink ? await rejectedSink.commit(leased) : [];
        rejectedHeld = 0;
        files.push(...diverted);
        events.committed(diverted);
        commits++;
        // A commit that made files visible is news; an empty one (a streamed batch) is detail.
        const visible = receipt.files.length + diverted.length > 0;
        logger[visible ? 'info' : 'debug']('committed', {
          event: 'commit',
          dataset,
          commit: commits,
          files: receipt.files.length,
          rows: receipt.rows,
          bytes: receipt.files.reduce((n, f) => n + f.bytes, 0),
          ...(diverted.length > 0 ? { rejectedFiles: diverted.length } : {}),
        });
        if (keepState && pending.size > 0) {
          const streams = [...pending.keys()];
          for (const [k, v] of pending) committed.set(k, v);
          pending.clear();
          lock.assertHeld();
          await store.save(committed, { now: new Date(clock.now()), runId });
          ledger.onCommitted(streams);
          logger.debug('checkpoint saved', { event: 'checkpoint', path: store.path, streams: streams.length, ...(streams.length <= 5 ? { updated: streams } : {}) });
        }
        batchesSinceCommit = 0;
        lastCommitAt = clock.now();
        await record?.write();
      };

      const handleRejected = async (stream: string, rejected: readonly Rejected[]): Promise<void> => {
        if (rejected.length === 0) return;
        const first = rejected[0]!;
        if (opts.onReject === 'fail') throw new RejectedRecordError(first.reason);
        rejectedTotal += rejected.length;
        events.rows(dataset, 'rejected', rejected.length);
        if (opts.onReject === 'drop') {
          for (const r of rejected) {
            const key = `${r.code}|${r.field ?? ''}`;
            if (warnedCodes.has(key)) continue;
            warnedCodes.add(key);
            logger.warn(`dropping rejected records: ${r.reason}`, { code: r.code, stream: r.stream, ...(r.field ? { field: r.field } : {}) });
          }
          return;
        }
        await rejectedSink!.write(dataset, rejected, quietCtx);
        rejectedHeld += rejected.length;
      };

      // A copy: the store's map moves on as commits land, the source's starting point must not.
      iterator = source.read(ctx, startFrom)[Symbol.asyncIterator]();
      let status: 'succeeded' | 'aborted' = 'succeeded';
      /** The shared limiter's Redis went away: no more requests, but the whole batches read so far are committed. */
      let stopped: CoordinatorDownError | undefined;
      for (;;) {
        if (signal.aborted) {
          status = 'aborted';
          break;
        }
        const aborted = abortPromise(signal);
        let step: Step<unknown>;
        inFlight = true;
        try {
          step = await Promise.race([
            iterator.next().then((result): Step<unknown> => ({ kind: 'next', result })),
            aborted.promise.then((): Step<unknown> => ({ kind: 'aborted' })),
          ]);
        } catch (error) {
          // A source that stops by throwing on abort has still delivered only whole batches.
          if (signal.aborted) step = { kind: 'aborted' };
          else if (error instanceof CoordinatorDownError) {
            stopped = error;
            inFlight = false;
            break;
          } else throw error;
        } finally {
          aborted.dispose();
        }
        if (step.kind === 'aborted') {
          status = 'aborted';
          break;
        }
        inFlight = false;
        if (step.result.done) break;
        const batch = step.result.value;
        events.rows(dataset, 'received', batch.records.length);
        events.streamRows(batch.stream, batch.records.length);

        let current: Batch<unknown> = batch;
        const rejected: Rejected[] = [];
        for (const [i, t] of transforms.entries()) {
          if (transformDefs[i]!.pins) laneOf(current.records)?.pin?.();
          const r = t.apply(current, ctx);
          current = r.output;
          for (const x of r.rejected) rejected.push(x as Rejected);
        }
        await handleRejected(batch.stream, rejected);

        const nextSeq = () => {
          const n = seqs.get(batch.stream) ?? 0;
          seqs.set(batch.stream, n + 1);
          return n;
        };
        const output: Batch<unknown> = batch.checkpoint ? { ...current, checkpoint: batch.checkpoint } : current;
        if (output.records.length > 0) {
          for (const piece of rechunk(output, { maxRows: opts.batchMaxRows, maxBytes: opts.batchMaxBytes }, nextSeq)) {
            const refused = await sink.write(piece, quietCtx);
            handed += piece.records.length - ((refused as readonly Rejected[] | undefined | void)?.length ?? 0);
            if (countsFlaws) handedFlawed += flawedOf(piece.records) - flawedOf(((refused as readonly Rejected[] | undefined | void) ?? []).map((r) => r.record));
            if (refused) await handleRejected(batch.stream, refused as readonly Rejected[]);
          }
        }
        if (batch.checkpoint) pending.set(batch.checkpoint.stream, batch.checkpoint);
        batchesSinceCommit++;
        // Rows on a stream are gone once written: with state, every batch the reader took is
        // committed at once, so the next run starts right after it and nowhere later.
        const streamed = keepState && sink.streaming === true;
        // A sink rewritten whole by each commit (wholeRun) is committed once, after the last batch.
        if (sink.wholeRun !== true && (streamed || batchesSinceCommit >= opts.commitEveryBatches || clock.now() - lastCommitAt >= opts.commitEveryMs)) {
          await commit();
        }
      }

      // Close the source: wait for it unless a read is still pending (an aborted read may never settle).
      const it = iterator;
      iterator = undefined;
      if (inFlight) void it.return?.().catch(() => undefined);
      else await it.return?.();

      // Whatever was written belongs to whole source batches: commit it, aborted or not. Not into a
      // sink that each commit rewrites whole (wholeRun): a run that stopped early (a signal, the
      // coordinator gone, the daily quota) would replace the last whole run's output with a part
      // of its window; that output stays as it was.
      const keepsLastWhole = sink.wholeRun === true && (status === 'aborted' || stopped !== undefined || events.snapshot().stoppedAtQuota);
      if (batchesSinceCommit > 0 && !keepsLastWhole) await commit();
      // Committed first, then the run fails (nothing staged is left for the abort below).
      if (stopped) throw stopped;
      if (status === 'aborted') {
        // An event of its own, so a collector that selects lines by event finds the stop too.
        logger.warn(
          keepsLastWhole
            ? 'run aborted; the output keeps the rows of the last run that completed (this one rewrites it whole, so it wrote nothing)'
            : ABORTED_TEXT[resumptionOf(pipeline, options.registry)],
          { event: 'run-stopped' },
        );
      }
      if (rejectedTotal > 0 && opts.onReject === 'divert') {
        // Exit 3, said on stderr also with --quiet (no summary): how many, and where to look.
        const to = `${outputDir.replace(/\/+$/, '')}/${REJECTED_DIR}/`;
        logger.warn(`${rejectedTotal} rejected record${rejectedTotal === 1 ? '' : 's'} diverted to ${to}`, { event: 'rejected', rejected: rejectedTotal, to });
      }
      // Dropped ones too (exit 3): the lines above say why, once per reason; this one says how many.
      if (rejectedTotal > 0 && opts.onReject === 'drop') {
        logger.warn(`${rejectedTotal} rejected record${rejectedTotal === 1 ? '' : 's'} dropped (onReject: drop)`, { event: 'rejected', rejected: rejectedTotal, to: 'dropped' });
      }
      for (const s of ledger.carriedToSay()) {
        ctx.events.shortfall?.(`${s.message} (said by run ${s.runId}, which did not finish after committing it; no later run fetches these bars)`);
      }
      const flawedTotal = Object.values(events.snapshot().rows).reduce((a, r) => a + (r.flawed ?? 0), 0);
      if (flawedTotal > 0) {
        // Exit 0 (nothing was held back), but said on stderr also with --quiet: records marked wrong are in the data.
        logger.warn(`${flawedTotal} record${flawedTotal === 1 ? '' : 's'} written with a flaw key (the source found ${flawedTotal === 1 ? 'it' : 'them'} wrong; no transform rejects here)`, { event: 'flawed', flawed: flawedTotal });
      }
      // No refresh may land after (or over) the final record.
      withdrawLastWords();
      await record?.stop();
      const final = manifest(status);
      const manifestPath = look ? undefined : await writeRunManifest(state, final);
      const { shortfalls, notes, stoppedAtQuota } = events.snapshot();
      logger.info('run finished', runEnd(final, manifestPath, { shortfalls, stoppedAtQuota }));
      return { runId, status, manifestPath, manifest: final, shortfalls, notes, stoppedAtQuota };
    } catch (error) {
      if (iterator) void iterator.return?.().catch(() => undefined);
      // Rows a stream (stdout) already took are with the reader: no abort takes them back, so they
      // are written, not "not committed" (the summary and --json would say 0 written of a pipe full).
      if (sink.streaming === true && handed > 0) {
        events.rows(dataset, 'written', handed);
        events.flawed(dataset, handedFlawed);
        handed = 0;
        handedFlawed = 0;
      }
      await sink.abort(leased).catch(() => undefined);
      await rejectedSink?.abort(leased).catch(() => undefined);
      // Records diverted since the last commit were never written under _rejected/: like the rows
      // of their batches they are not committed, and the next run fetches (and rejects) them again.
      if (rejectedHeld > 0) {
        events.rows(dataset, 'rejected', -rejectedHeld);
        rejectedTotal -= rejectedHeld;
        rejectedHeld = 0;
      }
      withdrawLastWords();
      await record?.stop();
      // A reader that left (stdout closed: exit 141) stopped the run; nothing in it failed.
      const failed = manifest(error instanceof OutputClosedError ? 'output-closed' : 'failed', error);
      if (!look) await writeRunManifest(state, failed).catch(() => undefined);
      // The CLI reports the error itself; this line only closes the run's story (stack at debug).
      logger.info('run finished', { ...runEnd(failed), code: failed.error?.code });
      throw error;
    } finally {
      withdrawLastWords();
      await sink.close().catch(() => undefined);
      await record?.stop();
    }
  };

  // A state folder in a dataset folder or under _quotelake/ is refused before anything (a look's quota files too).
  checkStateDirPlacement(isRemote(storage) ? undefined : outputDir, state.dir);
  // A look writes nothing into the output (rejected records at most, under its own run's name): it
  // leaves the output, its lock and its recovery to the runs that write there.
  if (look) return runLocked();
  // Before anything is fetched or touched: a folder the run could never commit to fails now, with its fix.
  // A path too deep for the run's own files is refused before the output is made or probed.
  checkPipelinePathRoom(pipeline, options.registry, { output: isRemote(storage) ? undefined : outputDir, stateDir: state.dir });
  await checkOutputPlacement(isRemote(storage) ? undefined : outputDir);
  if (isRemote(storage)) await checkRemoteOutputPlacement(storage);
  if (isRemote(storage)) await checkOutputStorage(storage, safeFileToken(runId));
  else await checkOutputDir(outputDir);
  // Recovery below deletes staging and unlisted files: only one run may own the output at a time.
  lock = await acquireRunLock(
    options.storage ?? outputDir,
    { runId, pipeline: pipeline.name, now: new Date(clock.now()) },
    // Real time, whatever `clock` says (`--clock` shifts the run's "now"): other processes compare
    // the lease's expiry with their own clocks.
    { clock: options.leaseClock ?? systemClock, onLost: (error) => leaseLost.abort(error) },
  );
  if (!lock.enforced) {
    logger.warn('this object store ignores conditional writes: the lake lease cannot keep a second writer out; run one writer per lake yourself', { event: 'lock', lease: lock.path });
  }
  try {
    const result = await runLocked();
    // Stopped because another run took the lake over: that is a failure, not an interrupt.
    if (leaseLost.signal.aborted) throw leaseLost.signal.reason;
    // A lake this run created records its layout version.
    await recordLayout(lake, new Date(clock.now()));
    return result;
  } finally {
    await lock.release();
  }
}
