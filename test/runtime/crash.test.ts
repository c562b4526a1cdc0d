/**
 * Crash safety: a real pipeline (built code, child process) is killed with SIGKILL at seeded random
 * moments; after the kills a normal run completes, and the dataset read back with DuckDB equals that
 * of an uninterrupted run: no gap, no duplicate key, no partial, temp or unlisted file in the tree.
 * The same for the NDJSON file sink: the file's lines equal those of an uninterrupted run, as a set.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/mulberry32.js';
import { runCrashChild, seededKillMoments, type ChildResult } from '../helpers/crash-child.js';
import { allFiles } from '../helpers/all-files.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const SIMULATED = join(root, 'test/fixtures/crash-run.mjs');
const BEHAVING = join(root, 'test/fixtures/crash-run-service.mjs');
const SEED = 20261122;
/** Kills per scenario: 8 by default (24 in this file), as in s3-crash and delta-crash; QL_CRASH_KILLS=40 for a longer hunt. */
const MIN_KILLS = Number(process.env.QL_CRASH_KILLS ?? 8);

function runChild(fixture: string, outputDir: string, killAfterMs?: number, args: readonly string[] = []): Promise<ChildResult> {
  return runCrashChild([fixture, outputDir, ...args], killAfterMs);
}

let db: DuckDBInstance;
beforeAll(async () => {
  db = await DuckDBInstance.create(':memory:');
});
afterAll(() => {
  db?.closeSync();
});

async function query(sql: string): Promise<unknown[][]> {
  const conn = await db.connect();
  try {
    return (await conn.runAndReadAll(sql)).getRowsJson() as unknown[][];
  } finally {
    conn.closeSync();
  }
}

/**
 * The files the manifest lists, as a reader following it opens them: a glob would also see files
 * retired within the grace period (replaced, kept for readers of the previous manifest).
 */
function scan(outputDir: string): string {
  const manifest = JSON.parse(readFileSync(join(outputDir, '_quotelake/manifests/kline.parquet.json'), 'utf8')) as { files: { path: string }[] };
  const list = manifest.files.map((f) => `'${join(outputDir, 'kline', f.path).replace(/'/g, "''")}'`).join(', ');
  return `read_parquet([${list}], hive_partitioning = true)`;
}

/** Every row, every column as text, in key order. */
async function dataset(outputDir: string): Promise<unknown[][]> {
  return query(`SELECT COLUMNS(*)::VARCHAR FROM ${scan(outputDir)} ORDER BY code, ts`);
}

/** What a reader of the output tree sees must be exactly the committed files. */
async function checkTree(outputDir: string): Promise<void> {
  const files = allFiles(outputDir).map((f) => relative(outputDir, f));
  const visible = files.filter((f) => !f.startsWith('.state/'));
  // Nothing staged, no lock, no temp file once a run has completed.
  expect(visible.filter((f) => !f.startsWith('kline/')).sort()).toEqual(['_quotelake/layout.json', '_quotelake/manifests/kline.parquet.json']);
  expect(files.filter((f) => /\.tmp/.test(f))).toEqual([]);
  const dataFiles = visible.filter((f) => f.endsWith('.parquet'));
  const manifest = JSON.parse(await readFile(join(outputDir, '_quotelake/manifests/kline.parquet.json'), 'utf8')) as {
    files: { path: string; rows: number; bytes: number }[];
    retired: { path: string; rows: number; bytes: number }[];
  };
  // Replaced files stay on disk, listed as retired, until their grace period has passed.
  const kept = [...manifest.files, ...manifest.retired];
  const listed = kept.map((f) => `kline/${f.path}`).sort();
  expect(dataFiles.sort()).toEqual(listed);
  for (const f of kept) expect((await stat(join(outputDir, 'kline', f.path))).size).toBe(f.bytes);
  expect(visible.filter((f) => !dataFiles.includes(f)).sort()).toEqual(['_quotelake/layout.json', '_quotelake/manifests/kline.parquet.json']);
}

/** The Parquet tree after a completed run: no duplicate key, exactly the listed files. */
async function checkParquet(outputDir: string): Promise<void> {
  const [dups] = await query(`SELECT count(*) - count(DISTINCT (code, interval, ts)) FROM ${scan(outputDir)}`);
  expect(dups).toEqual(['0']);
  await checkTree(outputDir);
}

interface KillOptions {
  /** Extra arguments of the fixture (after the output folder). */
  readonly args?: readonly string[];
  /** What must hold of the output tree after a completed run; default: checkParquet. */
  readonly verify?: (outputDir: string) => Promise<void>;
}

/**
 * Scenarios at once: a run spends much of its time waiting on fsync and its encode workers, so two
 * scenarios in their own folders overlap well; each still runs its own runs one after another.
 */
const LANES = 2;

/**
 * Kills runs of `fixture` at seeded random moments (3 to 5 per scenario) until `MIN_KILLS` kills,
 * then finishes each scenario with a normal run and compares its dataset with an uninterrupted one.
 * Each scenario draws its kill moments from the seeded sequence in scenario order, whichever lane runs it.
 */
async function killRepeatedly(
  fixture: string,
  seed: number,
  compare: (outputDir: string) => Promise<unknown[][]>,
  check: (rows: unknown[][], baselineDir: string) => Promise<void>,
  { args = [], verify = checkParquet }: KillOptions = {},
) {
  const baselineDir = await mkdtemp(join(tmpdir(), 'ql-crash-base-'));
  const base = await runChild(fixture, baselineDir, undefined, args);
  expect(base.code, base.stderr).toBe(0);
  expect(base.stdout).toMatch(/done succeeded/);
  const expected = await compare(baselineDir);
  await check(expected, baselineDir);
  await verify(baselineDir);

  const random = mulberry32(seed);
  const momentsOf = seededKillMoments(random, base.ms * 0.9);
  let kills = 0;
  let scenarios = 0;
  let failed = false;
  const lane = async () => {
    while (kills < MIN_KILLS && !failed) {
      const n = scenarios++;
      expect(n).toBeLessThan(40);
      const dir = await mkdtemp(join(tmpdir(), `ql-crash-${n + 1}-`));
      for (const killAfterMs of momentsOf(n)) {
        const r = await runChild(fixture, dir, killAfterMs, args);
        if (r.killed) kills++;
        else expect(r.code, r.stderr).toBe(0);
      }
      const done = await runChild(fixture, dir, undefined, args);
      expect(done.code, done.stderr).toBe(0);
      expect(done.stdout).toMatch(/done succeeded/);
      expect(await compare(dir)).toEqual(expected);
      await verify(dir);
    }
  };
  // A failed lane stops the others at their next scenario.
  await Promise.all(Array.from({ length: LANES }, () => lane().catch((e: unknown) => ((failed = true), Promise.reject(e)))));
  expect(kills).toBeGreaterThanOrEqual(MIN_KILLS);
}

// The three kill loops have their own folders: they run at once (limits for a loaded machine).
describe.concurrent('crash safety (parquet sink)', () => {
  it(`SIGKILL at ${MIN_KILLS}+ seeded random moments never loses, duplicates or exposes partial data`, async () => {
    await killRepeatedly(SIMULATED, SEED, dataset, async (rows, baselineDir) => {
      // 2 codes x 96 one-minute bars, all final, across two dates.
      expect(rows).toHaveLength(192);
      const [dates] = await query(`SELECT count(DISTINCT date)::VARCHAR FROM ${scan(baselineDir)}`);
      expect(dates).toEqual(['2']);
    });
  }, 240_000);

  it(`the same against a service showing every behaviour of R (real source, client and emulator)`, async () => {
    // The final bars and which bars exist: a forming bar's values depend on when it was fetched.
    const finals = (dir: string) =>
      query(`SELECT code, interval, ts::VARCHAR, CASE WHEN final THEN concat_ws(' ', open, high, low, close, volume, turnover) ELSE 'forming' END FROM ${scan(dir)} ORDER BY code, interval, ts`);
    await killRepeatedly(BEHAVING, SEED + 1, finals, async (rows) => {
      // 3 codes: a day and six hours of 1m bars (EURUSD too: a Tuesday), and their 1h bars, some minutes missing.
      expect(rows.length).toBeGreaterThan(5000);
    });
  }, 240_000);
});

const NDJSON_FILE = 'exports/kline.ndjson';

async function ndjsonLines(outputDir: string): Promise<string[]> {
  return (await readFile(join(outputDir, NDJSON_FILE), 'utf8')).split('\n').filter((l) => l.length > 0);
}

/** The NDJSON file's lines as a set (sorted), each as a one-element row. */
async function ndjsonSet(outputDir: string): Promise<unknown[][]> {
  return (await ndjsonLines(outputDir)).sort().map((l) => [l]);
}

/** Only the file (and the run state) once a run completed: no temp file, no staging, no lock; one line per key. */
async function checkNdjson(outputDir: string): Promise<void> {
  const files = allFiles(outputDir).map((f) => relative(outputDir, f));
  expect(files.filter((f) => !f.startsWith('.state/'))).toEqual([NDJSON_FILE]);
  expect(files.filter((f) => /\.tmp/.test(f))).toEqual([]);
  const keys = (await ndjsonLines(outputDir)).map((l) => {
    const r = JSON.parse(l) as { code: string; interval: string; ts: string };
    return `${r.code} ${r.interval} ${r.ts}`;
  });
  expect(new Set(keys).size).toBe(keys.length);
}

describe.concurrent('crash safety (ndjson file sink)', () => {
  it(`SIGKILL at ${MIN_KILLS}+ seeded random moments: the file ends with every line once, as an uninterrupted run writes it`, async () => {
    await killRepeatedly(
      SIMULATED,
      SEED + 2,
      ndjsonSet,
      async (rows) => {
        // 2 codes x 96 one-minute bars, all final: every forming bar was replaced by its final line.
        expect(rows).toHaveLength(192);
        expect(rows.every(([l]) => (JSON.parse(l as string) as { final: boolean }).final)).toBe(true);
      },
      { args: ['ndjson'], verify: checkNdjson },
    );
  }, 240_000);
});
