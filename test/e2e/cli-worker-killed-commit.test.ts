/**
 * A worker SIGKILLed mid-commit (after its journal and files, before the manifest lands) leaves a
 * commit the next command on the lake finishes. Slices never move the pipeline's checkpoints, so
 * finishing their commit must not either: no checkpoint file made for a pipeline that never ran
 * there, and no word that the pipeline "resumes after" rows it took no checkpoint for.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { settleTokens, useRedisServer } from '../helpers/redis-server.js';
import { ROOT, runCli, tempDir } from './helpers/cli.js';

const CLOCK = '2026-11-20T12:00:00Z';
const PRELOAD = join(ROOT, 'test/fixtures/kill-at-rename.mjs');
const KILL_AT_MANIFEST = '_quotelake/manifests/kline\\.parquet\\.json';

function pipelineFile(): string {
  const file = join(tempDir('ql-killed-slice-p-'), 'sliced.yaml');
  writeFileSync(file, ['name: sliced', 'source:', '  type: kline-history', '  codes: [BTCUSDT, ETHUSDT]', '  intervals: [1h]', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet', ''].join('\n'));
  return file;
}

describe("a worker killed in its slices' commit", () => {
  const redis = useRedisServer();

  /** Queues two older days of the pipeline into the lake and runs a worker that dies at the manifest's rename. */
  async function killedWorkerCommit(file: string, output: string, db: number): Promise<void> {
    // A database of its own per test: a killed worker's slice stays active in its queue.
    const env = { QUOTELAKE_REDIS_URL: `${redis().url}/${db}` };
    await settleTokens(env.QUOTELAKE_REDIS_URL, ['demo-professional']);
    const made = await runCli(['enqueue', file, '--since', '2026-11-10', '--until', '2026-11-12', '--output', output, '--clock', CLOCK], { env });
    expect(made.code, made.stderr).toBe(0);
    const killed = await runCli(['worker', '--until-empty', '--clock', CLOCK], { env: { ...env, NODE_OPTIONS: `--import ${PRELOAD}`, QL_KILL_AT: KILL_AT_MANIFEST } });
    expect(killed.signal).toBe('SIGKILL');
  }

  it('is finished by repair without a checkpoint file for a pipeline that never ran there', async () => {
    const output = tempDir('ql-killed-slice-lake-');
    await killedWorkerCommit(pipelineFile(), output, 1);
    const repaired = await runCli(['repair', '--output', output, '--yes']);
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(repaired.stdout).toMatch(/kline\.parquet: a commit of \d+ files? that run \S+ decided and did not finish \(killed\); finished\n/);
    expect(repaired.stdout).not.toContain('checkpoints saved');
    expect(existsSync(join(output, '.state/checkpoints/sliced.json'))).toBe(false);
  }, 60_000);

  it("is finished by the pipeline's next run, whose checkpoints stay its own and whose note says none moved", async () => {
    const file = pipelineFile();
    const output = tempDir('ql-killed-slice-lake-');
    const first = await runCli(['run', file, '--since', '3d', '--output', output, '--clock', CLOCK, '--quiet']);
    expect(first.code, first.stderr).toBe(0);
    const checkpoints = join(output, '.state/checkpoints/sliced.json');
    const before = JSON.parse(readFileSync(checkpoints, 'utf8')) as { runId: string; streams: unknown };
    await killedWorkerCommit(file, output, 2);
    const next = await runCli(['run', file, '--since', '3d', '--output', output, '--clock', CLOCK, '--json']);
    expect(next.code, next.stderr).toBe(0);
    const notes = (JSON.parse(next.stdout) as { runs: { notes: string[] }[] }).runs[0]!.notes.filter((n) => n.startsWith('finished the commit of interrupted run'));
    expect(notes).toHaveLength(1);
    // The kill falls at the first manifest the worker publishes: all its slices' rows, or those of the slices done by then.
    expect(notes[0]).toMatch(/: [1-9][\d,]* kline rows new in \d+ files?, now counted in its run record; it moved no checkpoint \(as a worker's slices do not\), so none was saved$/);
    const after = JSON.parse(readFileSync(checkpoints, 'utf8')) as { runId: string; streams: unknown };
    expect(after.streams).toEqual(before.streams);
  }, 60_000);
});
