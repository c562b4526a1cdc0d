/**
 * `quotelake run --output s3://...` through the built CLI against a real S3-compatible server on
 * loopback (s3rver) and the embedded emulator at a frozen instant: the objects are read back with
 * the SDK, downloaded, and read with DuckDB; they equal what the same run writes to a folder, no
 * staged object is left, and a second run adds nothing. Also the errors an unusable store gives
 * before any request, and `inspect` and `compact` on the bucket.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { useS3Server } from '../helpers/s3-server.js';
import { closedPort } from '../helpers/closed-port.js';
import { duck } from '../sinks/helpers.js';
import { ROOT, runCli, tempDir, type CliResult } from './helpers/cli.js';

const NOW = process.env.QUOTELAKE_TEST_CLOCK ?? '2026-03-04T15:00:00Z';
const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };
const pipeline = (name: string): string => join(ROOT, 'pipelines', `${name}.yaml`);

interface RunDoc {
  exitCode: number;
  runs: { exitCode: number; rows: Record<string, { received: number; written: number; merged: number }>; files: { count: number } }[];
}

/** Every key under a prefix (ListObjectsV2, page after page), relative to it. */
async function keysUnder(client: S3Client, bucket: string, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }));
    for (const o of page.Contents ?? []) keys.push(o.Key!.slice(prefix.length));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token !== undefined);
  return keys.sort();
}

/** The objects under a prefix, downloaded into a fresh folder with the same relative paths. */
async function download(client: S3Client, bucket: string, prefix: string): Promise<string> {
  const dir = tempDir('ql-s3-download-');
  for (const key of await keysUnder(client, bucket, prefix)) {
    const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: prefix + key }));
    const path = join(dir, key);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, await answer.Body!.transformToByteArray());
  }
  return dir;
}

/**
 * A dataset's live rows as text (decimals and instants cast to VARCHAR: compared exactly), sorted
 * on every column. Only the files its manifest lists: a replaced file stays for its grace period.
 */
async function rowsOf(dir: string, dataset: string): Promise<Record<string, unknown>[]> {
  const manifest = JSON.parse(readFileSync(join(dir, '_quotelake', 'manifests', `${dataset}.parquet.json`), 'utf8')) as { files: { path: string }[] };
  const files = `[${manifest.files.map((f) => `'${join(dir, dataset, f.path)}'`).join(', ')}]`;
  const columns = await duck(`DESCRIBE SELECT * FROM read_parquet(${files}, hive_partitioning = true)`);
  const select = columns.map((c) => `CAST("${String(c.column_name)}" AS VARCHAR) AS "${String(c.column_name)}"`).join(', ');
  return duck(`SELECT ${select} FROM read_parquet(${files}, hive_partitioning = true) ORDER BY ALL`);
}

function docOf(result: CliResult): RunDoc {
  expect(result.stderr).not.toMatch(/NodeVersionSupportWarning/);
  return JSON.parse(result.stdout) as RunDoc;
}

describe('run --output s3://bucket/prefix (s3rver on loopback)', () => {
  const server = useS3Server();
  const work = tempDir('ql-s3-cwd-');
  const s3Run = (name: string, prefix: string, extra: string[] = []): Promise<CliResult> =>
    runCli(['run', pipeline(name), '--output', `s3://lake-test/${prefix}`, '--s3-endpoint', server().endpoint, '--clock', NOW, '--json', ...extra], { cwd: work, env: CREDENTIALS });

  // The three describes use their own prefixes of the one server: they run at once (their CLI runs
  // mostly wait on start-up, the store and the disk). The demo's tests read what the last one compacts: in order.
  describe.concurrent('the demo K-line backfill', () => {
    let first: CliResult;
    let second: CliResult;
    let local: CliResult;
    const localOut = tempDir('ql-s3-local-');

    beforeAll(async () => {
      [first, local] = await Promise.all([
        s3Run('demo', 'some/prefix'),
        runCli(['run', pipeline('demo'), '--output', localOut, '--clock', NOW, '--json'], { cwd: work }),
      ]);
      second = await s3Run('demo', 'some/prefix');
    }, 120_000);

    it.sequential('succeeds, with the rows of a run into a folder', () => {
      expect(first.code, first.stderr).toBe(0);
      const doc = docOf(first);
      expect(doc.runs[0]!.rows.kline!.written).toBeGreaterThan(10_000);
      expect(doc.runs[0]!.rows).toEqual(docOf(local).runs[0]!.rows);
    });

    it.sequential('leaves only data and bookkeeping: no staged object, nothing but part files under the dataset', async () => {
      const keys = await keysUnder(server().client(), 'lake-test', 'some/prefix/');
      expect(keys.filter((k) => k.includes('staging') || k.includes('probe'))).toEqual([]);
      // Bookkeeping: the layout, the manifest, and the state (checkpoints, two runs) in the lake; the lease is released.
      const bookkeeping = keys.filter((k) => k.startsWith('_quotelake/')).map((k) => k.replace(/runs\/[^/]+\.json$/, 'runs/RUN.json'));
      expect(bookkeeping.sort()).toEqual(['_quotelake/layout.json', '_quotelake/manifests/kline.parquet.json', '_quotelake/state/checkpoints/demo.json', '_quotelake/state/runs/RUN.json', '_quotelake/state/runs/RUN.json']);
      // On S3 the table is Delta by default: its log, and hive part files.
      const log = keys.filter((k) => k.startsWith('kline/_delta_log/'));
      expect(log).toContain('kline/_delta_log/00000000000000000000.json');
      const data = keys.filter((k) => !k.startsWith('_quotelake/') && !k.startsWith('kline/_delta_log/'));
      expect(data.length).toBeGreaterThan(0);
      for (const k of data) expect(k).toMatch(/^kline\/interval=\w+\/year=\d{4}\/date=[^/]+\/part-[\w-]+\.parquet$/);
    });

    it.sequential('holds exactly the rows a run into a folder writes (decimals compared as text), and a second run adds none', async () => {
      expect(second.code, second.stderr).toBe(0);
      expect(docOf(second).runs[0]!.rows.kline!.written).toBe(0);
      const downloaded = await download(server().client(), 'lake-test', 'some/prefix/');
      const fromS3 = await rowsOf(downloaded, 'kline');
      const fromDir = await rowsOf(localOut, 'kline');
      expect(fromS3.length).toBe(docOf(first).runs[0]!.rows.kline!.written);
      expect(fromS3).toEqual(fromDir);
      // An exact decimal survived the trip: a value with all 18 decimals of DECIMAL(38,18).
      expect(String(fromS3[0]!.close)).toMatch(/^\d+\.\d{18}$/);
    });

    it.sequential('inspect and compact read the bucket', async () => {
      const inspect = await runCli(['inspect', 's3://lake-test/some/prefix', '--s3-endpoint', server().endpoint, '--json'], { env: CREDENTIALS });
      expect(inspect.code, inspect.stderr).toBe(0);
      const info = JSON.parse(inspect.stdout) as { datasets: { dataset: string; rows: number; problems: string[] }[]; runs: unknown[] };
      expect(info.datasets.map((d) => [d.dataset, d.rows, d.problems])).toEqual([['kline', docOf(first).runs[0]!.rows.kline!.written, []]]);
      expect(info.runs).toHaveLength(2);
      const compact = await runCli(['compact', '--output', 's3://lake-test/some/prefix', '--s3-endpoint', server().endpoint, '--grace', '0'], { cwd: work, env: CREDENTIALS });
      expect(compact.code, compact.stderr).toBe(0);
      expect(compact.stdout).toMatch(/^kline\.parquet: \d+ → \d+ files/);
    });
  });

  describe.concurrent('halts, depth and trade (run side by side)', () => {
    const localHalts = tempDir('ql-s3-local-');
    const runs = new Map<string, CliResult>();
    beforeAll(async () => {
      const named = async (key: string, run: Promise<CliResult>) => runs.set(key, await run);
      await Promise.all([
        named('halt', s3Run('demo/4-trading-halts', 'halts')),
        named('halt-local', runCli(['run', pipeline('demo/4-trading-halts'), '--output', localHalts, '--clock', NOW, '--json'], { cwd: work })),
        named('depth', s3Run('demo/2-depth-snapshot', 'snap-depth')),
        named('trade', s3Run('demo/3-trade-snapshot', 'snap-trade')),
      ]);
    }, 120_000);

    it('halts: the same rows as a run into a folder', async () => {
      expect(runs.get('halt')!.code, runs.get('halt')!.stderr).toBe(0);
      expect(runs.get('halt-local')!.code, runs.get('halt-local')!.stderr).toBe(0);
      const fromS3 = await rowsOf(await download(server().client(), 'lake-test', 'halts/'), 'halt');
      expect(fromS3.length).toBeGreaterThan(0);
      expect(fromS3).toEqual(await rowsOf(localHalts, 'halt'));
    });

    // On its own prefix: it runs beside the checks of the other runs.
    it('repair names a damaged object, drops it under the lease (the Delta log too), and the next run commits', async () => {
      // The demo's order books in one round: repair needs a Delta table of depth rows, not the demo's 9 s of polling.
      const oneRound = join(work, 'depth-one-round.yaml');
      writeFileSync(oneRound, readFileSync(pipeline('demo/2-depth-snapshot'), 'utf8').replace(/^  everySeconds: \d+\n  count: \d+\n/m, ''));
      expect(readFileSync(oneRound, 'utf8')).not.toMatch(/everySeconds|count:/);
      const depthRun = () =>
        runCli(['run', oneRound, '--output', 's3://lake-test/repair-depth', '--s3-endpoint', server().endpoint, '--clock', NOW, '--json'], { cwd: work, env: CREDENTIALS });
      const first = await depthRun();
      expect(first.code, first.stderr).toBe(0);
      const [key] = (await keysUnder(server().client(), 'lake-test', 'repair-depth/')).filter((k) => k.endsWith('.parquet') && !k.includes('_delta_log'));
      await server().client().send(new PutObjectCommand({ Bucket: 'lake-test', Key: `repair-depth/${key}`, Body: new Uint8Array(1000) }));
      const repair = (...extra: string[]) => runCli(['repair', '--output', 's3://lake-test/repair-depth', '--s3-endpoint', server().endpoint, ...extra], { cwd: work, env: CREDENTIALS });
      const look = await repair('--dry-run');
      expect(look.code, look.stderr).toBe(0);
      expect(look.stdout).toContain(`depth.parquet (Delta): 1 of 1 live files cannot be read; would drop:\n  ${key}: damaged (1000 of `);
      const fixed = await repair('--yes');
      expect(fixed.code, fixed.stderr).toBe(0);
      expect((await repair('--dry-run')).stdout).toBe('depth.parquet (Delta): all 0 live files read\n');
      const log = (await keysUnder(server().client(), 'lake-test', 'repair-depth/depth/_delta_log/')).filter((k) => k.endsWith('.json'));
      const newest = await server().client().send(new GetObjectCommand({ Bucket: 'lake-test', Key: `repair-depth/depth/_delta_log/${log.sort().at(-1)}` }));
      expect(await newest.Body!.transformToString()).toContain('"remove"');
      expect((await depthRun()).code).toBe(0);
      // vacuum reads the bucket too (it once took the URL for a local folder and found no table).
      const vacuum = await runCli(['vacuum', '--output', 's3://lake-test/repair-depth', '--s3-endpoint', server().endpoint, '--retention', '0h', '--force'], { cwd: work, env: CREDENTIALS });
      expect(vacuum.code, vacuum.stderr).toBe(0);
      expect(vacuum.stdout).toContain(`deleted ${key}\n`);
      expect(existsSync(join(work, 's3:'))).toBe(false);
    }, 150_000);

    // Polling snapshots: the rows depend on the rounds' timing, so each is checked against its own run.
    it.each(['depth', 'trade'])('%s: what the run wrote is what the bucket holds, nothing staged', async (dataset) => {
      const result = runs.get(dataset)!;
      expect(result.code, result.stderr).toBe(0);
      const keys = await keysUnder(server().client(), 'lake-test', `snap-${dataset}/`);
      expect(keys.filter((k) => k.includes('staging'))).toEqual([]);
      const rows = await rowsOf(await download(server().client(), 'lake-test', `snap-${dataset}/`), dataset);
      expect(rows.length).toBe(docOf(result).runs[0]!.rows[dataset]!.written);
    });
  });

  describe.concurrent('an unusable store fails before any request', () => {
    it('a bucket that does not exist: a usage error (exit 2), the bucket named, no request sent', async () => {
      const result = await runCli(['run', pipeline('demo'), '--output', 's3://no-such-bucket/x', '--s3-endpoint', server().endpoint, '--clock', NOW, '--json'], { cwd: work, env: CREDENTIALS });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('bucket no-such-bucket does not exist');
      expect(docOf(result).runs[0]!.rows.kline?.received ?? 0).toBe(0);
    });

    it('inspect of a prefix holding nothing: exit 2, as a missing folder (a mistyped prefix is not an empty lake)', async () => {
      const result = await runCli(['inspect', 's3://lake-test/no-run-wrote-here', '--s3-endpoint', server().endpoint], { cwd: work, env: CREDENTIALS });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('s3://lake-test/no-run-wrote-here holds nothing (no run has written there)');
      expect(result.stdout).toBe('');
    });

    it('compact, vacuum and repair of a prefix holding nothing: exit 2, as inspect, and nothing written there (not even a lease)', async () => {
      const url = 's3://lake-test/no-lake-to-maintain';
      const commands = [['compact'], ['compact', '--dry-run'], ['vacuum'], ['repair', '--yes']];
      // Four refusals of one empty prefix, none writing there: at once.
      const results = await Promise.all(commands.map((command) => runCli([...command, '--output', url, '--s3-endpoint', server().endpoint], { cwd: work, env: CREDENTIALS })));
      for (const [i, result] of results.entries()) {
        expect(result.code, commands[i]!.join(' ')).toBe(2);
        expect(result.stderr).toContain(`${url} holds nothing (no run has written there)`);
        expect(result.stdout).toBe('');
      }
      expect(await keysUnder(server().client(), 'lake-test', 'no-lake-to-maintain')).toEqual([]);
    });

    it('an endpoint nobody listens on: the endpoint is blamed', async () => {
      const port = await closedPort();
      const result = await runCli(['run', pipeline('demo'), '--output', 's3://lake-test/x', '--s3-endpoint', `http://127.0.0.1:${port}`, '--clock', NOW], { cwd: work, env: CREDENTIALS });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`the store at http://127.0.0.1:${port} could not be reached (ECONNREFUSED)`);
      expect(result.stderr).toMatch(/requests\s+0/);
    });

    it('a bad s3:// URL or endpoint is a usage error (exit 2)', async () => {
      // Five refusals before any request: at once.
      const [bad, dots, endpoint, migrate, inPath] = await Promise.all([
        runCli(['run', pipeline('demo'), '--output', 's3://Bad_Bucket/x', '--clock', NOW], { cwd: work, env: CREDENTIALS }),
        runCli(['run', pipeline('demo'), '--output', 's3://lake-test/a/../b', '--clock', NOW], { cwd: work, env: CREDENTIALS }),
        runCli(['run', pipeline('demo'), '--output', 's3://lake-test/x', '--s3-endpoint', 'ftp://127.0.0.1:1', '--clock', NOW], { cwd: work, env: CREDENTIALS }),
        runCli(['migrate', '--output', 's3://lake-test/x'], { cwd: work, env: CREDENTIALS }),
        // The bucket put in the endpoint: refused by name, not answered NoSuchBucket by the store.
        runCli(['run', pipeline('demo'), '--output', 's3://lake-test/x', '--s3-endpoint', `${server().endpoint}/lake-test`, '--clock', NOW], { cwd: work, env: CREDENTIALS }),
      ]);
      expect(inPath.code).toBe(2);
      expect(inPath.stderr).toContain(`${server().endpoint}/lake-test: an S3 endpoint has no path`);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('s3://Bad_Bucket: a bucket name has only lowercase letters');
      expect(dots.code).toBe(2);
      expect(endpoint.code).toBe(2);
      expect(endpoint.stderr).toContain('an S3 endpoint is http:// or https://');
      expect(migrate.code).toBe(2);
      expect(migrate.stderr).toContain('never in layout 1');
    });

    it('an s3:// outputDir in a pipeline file is checked with its line and column', async () => {
      const file = join(work, 'bad-s3.yaml');
      writeFileSync(file, 'name: bad-s3\nsource:\n  type: kline-latest\n  codes: [BTCUSDT]\n  intervals: [1m]\nsink:\n  type: parquet\noptions:\n  outputDir: s3://lake-test/a//b\n');
      const result = await runCli(['validate', file]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/bad-s3\.yaml:9:\d+/);
      expect(result.stderr).toContain('empty segment');
    });

    it('credentials in a pipeline file s3:// outputDir are refused and echoed neither half', async () => {
      const file = join(work, 'creds-s3.yaml');
      writeFileSync(file, 'name: creds-s3\nsource:\n  type: kline-latest\n  codes: [BTCUSDT]\n  intervals: [1m]\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\noptions:\n  outputDir: s3://AKIAEXAMPLEKEY:secretValue@lake-test/x\n');
      const result = await runCli(['validate', file]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('creds-s3.yaml:11:14: options.outputDir: "s3://***@lake-test/x"');
      expect(result.stderr).not.toMatch(/AKIAEXAMPLEKEY|secretValue/);
    });
  });
});
