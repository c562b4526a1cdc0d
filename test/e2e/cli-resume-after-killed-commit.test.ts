/**
 * A run SIGKILLed mid-commit, after its data files and commit journal are written and before its
 * manifest (a hive table) or its Delta version lands, through the built CLI, into a folder and into
 * s3rver, at a frozen instant against the embedded emulator. The next run finishes that commit, and
 * then: the killed run's checkpoints are where the commit holds them, so it asks only what a rerun of
 * an uninterrupted lake asks (not the whole window again, against the daily quota); the killed run's
 * record counts the rows and files that landed and names the run that finished them; the next run's
 * summary says so; and the rows equal an uninterrupted run's, value for value (no gap, no duplicate).
 *
 * The kill is exact: into a folder the CLI is preloaded with a hook that SIGKILLs it as it renames a
 * file onto the manifest or the Delta version (test/fixtures/kill-at-rename.mjs); into S3 a gate in
 * front of the store kills it when it sends that PUT, which never reaches the store. The dead run's
 * lease on S3 is then made expired, as waiting a lease's length would.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { useS3KillGate } from '../helpers/s3-kill-gate.js';
import { replayJsonLog } from '../lake/delta/protocol-replay.js';
import { duck } from '../sinks/helpers.js';
import { allFiles, ROOT, runCli, startCli, tempDir, type CliResult } from './helpers/cli.js';

const NOW = '2026-03-04T15:00:00Z';
const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };
const PRELOAD = join(ROOT, 'test/fixtures/kill-at-rename.mjs');
const RUN = ['run', join(ROOT, 'pipelines/kline-backfill.yaml'), '--codes', 'BTCUSDT,ETHUSDT', '--since', '1d', '--clock', NOW, '--json'];
/** The step the kill stops before: the manifest a hive commit publishes, the version a Delta one logs. */
const KILL_AT = { hive: '_quotelake/manifests/kline\\.parquet\\.json', delta: 'kline/_delta_log/\\d{20}\\.json' } as const;

interface RunDoc {
  runs: { runId: string; requestsTotal: number; notes: string[]; rows: Record<string, { received: number; written: number; merged: number }> }[];
}
interface InspectDoc {
  runs: { runId: string; status: string; rowsWritten: number; files: number; commitFinishedBy?: string }[];
  pendingCommits: unknown[];
}

const killGate = useS3KillGate();
const server = killGate.server;

/** Every key under an S3 prefix, downloaded into a folder with the same relative paths. */
async function download(client: S3Client, prefix: string): Promise<string> {
  const dir = tempDir('ql-killed-commit-s3-');
  let token: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: server().bucket, Prefix: `${prefix}/`, ...(token ? { ContinuationToken: token } : {}) }));
    for (const o of page.Contents ?? []) {
      const answer = await client.send(new GetObjectCommand({ Bucket: server().bucket, Key: o.Key! }));
      const path = join(dir, o.Key!.slice(prefix.length + 1));
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, await answer.Body!.transformToByteArray());
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token !== undefined);
  return dir;
}

/** The live rows (the manifest's files) as text, decimals and instants exact; and, for a Delta table, the log's live files. */
async function lakeOf(dir: string): Promise<{ rows: Record<string, unknown>[]; files: string[]; logged: string[] | undefined }> {
  const manifest = JSON.parse(readFileSync(join(dir, '_quotelake/manifests/kline.parquet.json'), 'utf8')) as { files: { path: string }[] };
  const files = manifest.files.map((f) => f.path).sort();
  const list = `[${files.map((f) => `'${join(dir, 'kline', f)}'`).join(', ')}]`;
  const rows = await duck(
    `SELECT code, interval, epoch_ms(ts)::VARCHAR AS ts, open::VARCHAR AS open, high::VARCHAR AS high, low::VARCHAR AS low, close::VARCHAR AS close, volume::VARCHAR AS volume, turnover::VARCHAR AS turnover, final::VARCHAR AS final FROM read_parquet(${list}, hive_partitioning = true) ORDER BY code, interval, ts`,
  );
  let logged: string[] | undefined;
  try {
    logged = [...(await replayJsonLog(join(dir, 'kline'))).live.keys()].sort();
  } catch {
    logged = undefined;
  }
  return { rows, files, logged };
}

const doc = (r: CliResult): RunDoc => JSON.parse(r.stdout) as RunDoc;

/** An uninterrupted run and the rerun after it: the rows to equal, and what a rerun asks. */
let clean: { rows: Record<string, unknown>[]; rerunRequests: number; firstRequests: number };
beforeAll(async () => {
  const output = tempDir('ql-killed-commit-clean-');
  const first = await runCli([...RUN, '--output', output]);
  expect(first.code, first.stderr).toBe(0);
  const rerun = await runCli([...RUN, '--output', output]);
  expect(rerun.code, rerun.stderr).toBe(0);
  clean = { rows: (await lakeOf(output)).rows, rerunRequests: doc(rerun).runs[0]!.requestsTotal, firstRequests: doc(first).runs[0]!.requestsTotal };
  // A rerun asks only for the newest bars of each series: far fewer than the window.
  expect(clean.rerunRequests).toBeLessThan(clean.firstRequests);
}, 120_000);

describe.each([
  { store: 'folder', table: 'hive' },
  { store: 'folder', table: 'delta' },
  { store: 's3', table: 'hive' },
  { store: 's3', table: 'delta' },
] as const)('a run killed mid-commit ($store, table $table)', ({ store, table }) => {
  it('the next run finishes its commit, moves its checkpoints and record there, and asks only for what is missing', async () => {
    const prefix = `killed-${table}`;
    const output = store === 'folder' ? tempDir('ql-killed-commit-') : `s3://${server().bucket}/${prefix}`;
    const args = [...RUN, '--table', table, '--output', output];
    const s3 = store === 's3' ? ['--s3-endpoint', killGate.endpoint()] : [];

    let killed: CliResult;
    if (store === 'folder') {
      killed = await runCli([...args], { env: { NODE_OPTIONS: `--import ${PRELOAD}`, QL_KILL_AT: KILL_AT[table] } });
    } else {
      const run = startCli([...args, ...s3], { env: CREDENTIALS });
      killGate.arm(new RegExp(`/${prefix}/${KILL_AT[table]}`), () => run.child.kill('SIGKILL'));
      killed = await run.result;
      await killGate.expireLease(prefix);
    }
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    const before = JSON.parse((await runCli(['inspect', output, ...s3, '--json'], { env: CREDENTIALS })).stdout) as InspectDoc;
    expect(before.pendingCommits).toHaveLength(1);
    const killedRunId = before.runs[0]!.runId;

    const next = await runCli([...args, ...s3], { env: CREDENTIALS });
    expect(next.code, next.stderr).toBe(0);
    const resumed = doc(next).runs[0]!;
    // Only what an uninterrupted lake's rerun asks: the killed run's rows are not fetched again.
    expect(resumed.requestsTotal).toBe(clean.rerunRequests);
    expect(resumed.notes.some((n) => n.startsWith(`finished the commit of interrupted run ${killedRunId}: 2,932 kline rows new in `))).toBe(true);

    const after = JSON.parse((await runCli(['inspect', output, ...s3, '--json'], { env: CREDENTIALS })).stdout) as InspectDoc;
    expect(after.pendingCommits).toEqual([]);
    const record = after.runs.find((r) => r.runId === killedRunId)!;
    expect(record).toMatchObject({ status: 'interrupted', rowsWritten: 2932, commitFinishedBy: resumed.runId });
    expect(record.files).toBeGreaterThan(0);
    if (store === 'folder' && table === 'hive') {
      // The text says the same (the same record, whatever the store and table).
      const text = (await runCli(['inspect', output, ...s3], { env: CREDENTIALS })).stdout;
      expect(text).toContain(`kline-backfill  interrupted (its last commit finished by run ${resumed.runId})  `);
    }

    // No gap, no duplicate: the rows of an uninterrupted run, value for value.
    const dir = store === 'folder' ? output : await download(server().client(), prefix);
    const lake = await lakeOf(dir);
    expect(lake.rows).toEqual(clean.rows);
    if (table === 'delta') expect(lake.logged).toEqual(lake.files);
  }, 120_000);
});

describe('a run killed mid-commit with records diverted to _rejected/ since its last commit', () => {
  it('keeps its checkpoints where they were: the next run fetches those batches again, so no diverted record is lost', async () => {
    // BTCUSDT's turnover does not fit 7 integer digits: its bars are rejected and diverted, EURUSD's written.
    const work = tempDir('ql-killed-commit-divert-');
    const pipeline = join(work, 'narrow.yaml');
    writeFileSync(pipeline, ['name: narrow', 'source:', '  type: kline-history', '  codes: [BTCUSDT, EURUSD]', '  intervals: [1h]', '  since: 3d', 'transforms:', '  - type: parse-decimals', '    decimal: { precision: 25, scale: 18 }', 'sink:', '  type: parquet', ''].join('\n'));
    const run = ['run', pipeline, '--clock', NOW, '--json'];
    const rejectedLines = (dir: string): number =>
      allFiles(join(dir, '_rejected')).reduce((n, f) => n + readFileSync(f, 'utf8').split('\n').filter((l) => l !== '').length, 0);

    const clean = tempDir('ql-killed-commit-divert-clean-');
    const uninterrupted = await runCli([...run, '--output', clean]);
    expect(uninterrupted.code, uninterrupted.stderr).toBe(3);
    const cleanRequests = doc(uninterrupted).runs[0]!.requestsTotal;
    const cleanRejected = rejectedLines(clean);
    expect(cleanRejected).toBeGreaterThan(0);

    const output = tempDir('ql-killed-commit-divert-');
    const killed = await runCli([...run, '--output', output], { env: { NODE_OPTIONS: `--import ${PRELOAD}`, QL_KILL_AT: KILL_AT.hive } });
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    const next = await runCli([...run, '--output', output]);
    expect(next.code, next.stderr).toBe(3);
    expect(doc(next).runs[0]!.notes.some((n) => n.startsWith('finished the commit of interrupted run'))).toBe(false);
    expect(doc(next).runs[0]!.requestsTotal).toBe(cleanRequests);
    expect(rejectedLines(output)).toBe(cleanRejected);
    expect((await lakeOf(output)).rows).toEqual((await lakeOf(clean)).rows);
  }, 120_000);
});
