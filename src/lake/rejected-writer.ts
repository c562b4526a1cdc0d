/**
 * The `divert` writer for `onReject: divert`: rejected records as NDJSON lines
 * `{ stream, code, field, value, reason, record }` under
 * `<output>/_rejected/<dataset>/date=<UTC date>/rejected-<runId>.ndjson`.
 * Each write is staged as one chunk object under `<output>/_quotelake/staging/<runId>/_rejected/`
 * (an object store has no append); at commit the file's live lines and its chunks are published
 * as one object (a rename-free atomic write, so it works on every LakeStorage), and the chunks go.
 * A run that does not own the output (an NDJSON look) keeps its chunks in memory instead: staging
 * belongs to the output's owner, whose recovery may remove it at any moment.
 */
import { posix } from 'node:path';
import type { CommittedFile, Rejected, RunContext } from '../core/component.js';
import { SinkError } from '../core/errors.js';
import { stringifyExact } from '../core/exact-json.js';
import { utcDate } from '../core/time.js';
import { STAGING_DIR } from './lake-paths.js';
import { partitionSegment, partitionValue, safeFileToken } from './partition-path.js';
import { storageOf, type LakeLocation } from './storage/storage-of.js';
import type { LakeStorage } from './storage/lake-storage.js';

export const REJECTED_DIR = '_rejected';

function line(r: Rejected): string {
  return stringifyExact(
    { stream: r.stream, code: r.code, field: r.field ?? null, value: r.value ?? null, reason: r.reason, record: r.record },
    (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value),
  );
}

export class RejectedWriter {
  /** Staged chunks of each file, in write order, by its final path: their keys, or their text when held in memory. */
  private readonly staged = new Map<string, string[]>();
  private readonly rows = new Map<string, number>();
  private runToken: string | undefined;
  private chunkSeq = 0;
  private readonly storage: LakeStorage;

  /** `redact`: the client's, so a token the service echoed inside a record never reaches the file. */
  constructor(
    output: LakeLocation,
    private readonly redact: (text: string) => string = (text) => text,
    private readonly inMemory = false,
  ) {
    this.storage = storageOf(output);
  }

  async write(dataset: string, rejected: readonly Rejected[], ctx: RunContext): Promise<void> {
    if (rejected.length === 0) return;
    this.runToken ??= safeFileToken(ctx.runId);
    const rel = posix.join(REJECTED_DIR, partitionValue(dataset), partitionSegment('date', utcDate(ctx.clock.now())), `rejected-${this.runToken}.ndjson`);
    const text = this.redact(rejected.map(line).join('\n') + '\n');
    let chunk = text;
    if (!this.inMemory) {
      chunk = posix.join(STAGING_DIR, this.runToken, `${rel}.${String(++this.chunkSeq).padStart(6, '0')}`);
      await this.storage.put(chunk, text);
    }
    this.staged.set(rel, [...(this.staged.get(rel) ?? []), chunk]);
    this.rows.set(rel, (this.rows.get(rel) ?? 0) + rejected.length);
    ctx.events.rows(dataset, 'rejected', rejected.length);
  }

  async commit(_ctx?: RunContext): Promise<CommittedFile[]> {
    const files: CommittedFile[] = [];
    for (const [rel, chunks] of this.staged) {
      let bytes: number;
      try {
        const parts: Uint8Array[] = [];
        const live = await this.storage.read(rel);
        if (live !== undefined) parts.push(live);
        for (const chunk of chunks) parts.push(this.inMemory ? Buffer.from(chunk) : ((await this.storage.read(chunk)) ?? new Uint8Array(0)));
        const body = Buffer.concat(parts);
        await this.storage.publish(rel, body);
        bytes = body.byteLength;
        if (!this.inMemory) for (const chunk of chunks) await this.storage.delete(chunk);
      } catch (error) {
        throw new SinkError(`cannot commit rejected records to ${rel}`, 'commit', error);
      }
      files.push({ path: rel, rows: this.rows.get(rel) ?? 0, bytes });
    }
    this.staged.clear();
    this.rows.clear();
    await this.removeStaging();
    return files;
  }

  async abort(_ctx?: RunContext): Promise<void> {
    this.staged.clear();
    this.rows.clear();
    await this.removeStaging();
  }

  /** Delete rejected lines a crashed run staged and never committed. */
  async recover(_ctx?: RunContext): Promise<void> {
    const runs = new Set<string>();
    for (const key of await this.storage.list(`${STAGING_DIR}/`)) {
      const parts = key.split('/');
      if (parts[3] === REJECTED_DIR) runs.add(parts[2]!);
    }
    for (const run of runs) await this.storage.deletePrefix(`${STAGING_DIR}/${run}/${REJECTED_DIR}/`);
  }

  private async removeStaging(): Promise<void> {
    if (this.runToken === undefined || this.inMemory) return;
    await this.storage.deletePrefix(`${STAGING_DIR}/${this.runToken}/${REJECTED_DIR}/`);
  }
}
