/**
 * The `divert` writer for `onReject: divert`: rejected records as NDJSON lines
 * `{ stream, code, field, value, reason, record }` under
 * `<output>/_rejected/<dataset>/date=<UTC date>/rejected-<runId>.ndjson`.
 * Lines are staged under `<output>/_quotelake/staging/<runId>/_rejected/` and made visible at commit by
 * rename (a second commit in the same run appends to a copy of the live file, then renames it).
 */
import { appendFile, copyFile, readdir, readFile, rename, rm, rmdir, stat } from 'node:fs/promises';
import { makeDir } from '../core/make-dir.js';
import { dirname, join, posix } from 'node:path';
import type { CommittedFile, Rejected, RunContext } from '../core/component.js';
import { SinkError } from '../core/errors.js';
import { utcDate } from '../core/time.js';
import { LAKE_DIR, STAGING_DIR } from './lake-paths.js';
import { insideRoot, partitionSegment, partitionValue, safeFileToken } from './partition-path.js';

export const REJECTED_DIR = '_rejected';

function line(r: Rejected): string {
  return JSON.stringify(
    { stream: r.stream, code: r.code, field: r.field ?? null, value: r.value ?? null, reason: r.reason, record: r.record },
    (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value),
  );
}

export class RejectedWriter {
  /** Relative path (under the output root) of each file staged this run, by its final path. */
  private readonly staged = new Map<string, string>();
  private readonly rows = new Map<string, number>();
  private runToken: string | undefined;

  constructor(private readonly outputDir: string) {}

  async write(dataset: string, rejected: readonly Rejected[], ctx: RunContext): Promise<void> {
    if (rejected.length === 0) return;
    this.runToken ??= safeFileToken(ctx.runId);
    const rel = posix.join(REJECTED_DIR, partitionValue(dataset), partitionSegment('date', utcDate(ctx.clock.now())), `rejected-${this.runToken}.ndjson`);
    const staging = posix.join(STAGING_DIR, this.runToken, rel);
    const path = insideRoot(this.outputDir, staging);
    await makeDir(dirname(path));
    await appendFile(path, rejected.map(line).join('\n') + '\n');
    this.staged.set(rel, staging);
    this.rows.set(rel, (this.rows.get(rel) ?? 0) + rejected.length);
    ctx.events.rows(dataset, 'rejected', rejected.length);
  }

  async commit(_ctx?: RunContext): Promise<CommittedFile[]> {
    const files: CommittedFile[] = [];
    for (const [rel, staging] of this.staged) {
      const from = insideRoot(this.outputDir, staging);
      const to = insideRoot(this.outputDir, rel);
      try {
        await makeDir(dirname(to));
        const live = await stat(to).then(
          () => true,
          () => false,
        );
        if (live) {
          const tmp = `${to}.tmp-${this.runToken}`;
          await copyFile(to, tmp);
          await appendFile(tmp, await readFile(from));
          await rename(tmp, to);
          await rm(from, { force: true });
        } else {
          await rename(from, to);
        }
      } catch (error) {
        throw new SinkError(`cannot commit rejected records to ${rel}`, 'commit', error);
      }
      files.push({ path: rel, rows: this.rows.get(rel) ?? 0, bytes: (await stat(to)).size });
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
    const root = join(this.outputDir, STAGING_DIR);
    for (const run of await readdir(root).catch(() => [] as string[])) {
      await rm(join(root, run, REJECTED_DIR), { recursive: true, force: true });
      await rmdir(join(root, run)).catch(() => undefined);
    }
    await rmdir(root).catch(() => undefined);
    await rmdir(join(this.outputDir, LAKE_DIR)).catch(() => undefined);
  }

  private async removeStaging(): Promise<void> {
    if (this.runToken === undefined) return;
    await rm(insideRoot(this.outputDir, posix.join(STAGING_DIR, this.runToken, REJECTED_DIR)), { recursive: true, force: true });
    await rmdir(insideRoot(this.outputDir, posix.join(STAGING_DIR, this.runToken))).catch(() => undefined);
    await rmdir(insideRoot(this.outputDir, STAGING_DIR)).catch(() => undefined);
    await rmdir(insideRoot(this.outputDir, LAKE_DIR)).catch(() => undefined);
  }
}
