/**
 * Crash safety of a Delta table: the crash test's pipeline (built code, child process) with
 * `sink.table: delta` is killed with SIGKILL at seeded random moments, then a normal run completes.
 * The log, replayed by the test reader (from the protocol, not src/lake/delta), names exactly the
 * files the manifest lists; no version adds a file another already added (resume adds nothing
 * twice); versions are contiguous; the series watermarks reach the last bar; and the table read
 * through the log with DuckDB equals an uninterrupted hive run, value for value (no gap, no duplicate).
 */
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/mulberry32.js';
import { runCrashChild, seededKillMoments, type ChildResult } from '../helpers/crash-child.js';
import { replayJsonLog } from '../lake/delta/protocol-replay.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURE = join(root, 'test/fixtures/crash-run.mjs');
const SEED = 20261124;
const MIN_KILLS = 8;

function runChild(outputDir: string, sink: string, killAfterMs?: number): Promise<ChildResult> {
  return runCrashChild([FIXTURE, outputDir, sink], killAfterMs);
}

let db: DuckDBInstance;
beforeAll(async () => {
  db = await DuckDBInstance.create(':memory:');
});
afterAll(() => db?.closeSync());

async function query(sql: string): Promise<unknown[][]> {
  const conn = await db.connect();
  try {
    return (await conn.runAndReadAll(sql)).getRowsJson() as unknown[][];
  } finally {
    conn.closeSync();
  }
}

/** Every row, instants as epoch ms and the rest as text, from the given files. */
function rowsOf(files: readonly string[]): Promise<unknown[][]> {
  const list = files.map((f) => `'${f.replace(/'/g, "''")}'`).join(', ');
  return query(
    `SELECT code, interval, epoch_ms(ts)::VARCHAR, open::VARCHAR, high::VARCHAR, low::VARCHAR, close::VARCHAR, volume::VARCHAR, turnover::VARCHAR, final::VARCHAR ` +
      `FROM read_parquet([${list}], hive_partitioning = true) ORDER BY code, ts`,
  );
}

async function manifestFiles(out: string): Promise<string[]> {
  const m = JSON.parse(await readFile(join(out, '_quotelake/manifests/kline.parquet.json'), 'utf8')) as { files: { path: string }[] };
  return m.files.map((f) => f.path).sort();
}

/** The table as a Delta reader sees it, after checking the log against the manifest and itself. */
async function deltaRows(out: string): Promise<unknown[][]> {
  const table = join(out, 'kline');
  const replayed = await replayJsonLog(table);
  expect([...replayed.live.keys()].sort()).toEqual(await manifestFiles(out));
  const adds: string[] = [];
  for (const name of (await readdir(join(table, '_delta_log'))).filter((n) => n.endsWith('.json')).sort()) {
    for (const line of (await readFile(join(table, '_delta_log', name), 'utf8')).split('\n')) {
      if (line.includes('"add"')) adds.push((JSON.parse(line) as { add: { path: string } }).add.path);
    }
  }
  expect(new Set(adds).size).toBe(adds.length);
  // 96 one-minute bars from 2026-11-20 23:12 UTC: the last one is 01:47 the next day.
  const last = Date.UTC(2026, 10, 20, 23, 12) + 95 * 60_000;
  expect(Object.values(replayed.txns)).toEqual([last, last]);
  return rowsOf([...replayed.live.keys()].map((p) => join(table, p)));
}

describe('crash safety of a Delta table', () => {
  it(`SIGKILL at ${MIN_KILLS}+ seeded moments: the log replays to exactly the data, no gap, nothing twice`, async () => {
    const hive = await mkdtemp(join(tmpdir(), 'ql-dcrash-hive-'));
    const base = await runChild(hive, 'parquet');
    expect(base.code, base.stderr).toBe(0);
    const expected = await rowsOf((await manifestFiles(hive)).map((p) => join(hive, 'kline', p)));
    expect(expected).toHaveLength(192);

    const random = mulberry32(SEED);
    const momentsOf = seededKillMoments(random, base.ms * 1.2);
    let kills = 0;
    let scenarios = 0;
    let failed = false;
    const lane = async () => {
      while (kills < MIN_KILLS && !failed) {
        const scenario = ++scenarios;
        expect(scenario).toBeLessThan(30);
        const dir = await mkdtemp(join(tmpdir(), `ql-dcrash-${scenario}-`));
        for (const killAfterMs of momentsOf(scenario - 1)) {
          const r = await runChild(dir, 'delta', killAfterMs);
          if (r.killed) kills++;
          else expect(r.code, r.stderr).toBe(0);
        }
        const done = await runChild(dir, 'delta');
        expect(done.code, done.stderr).toBe(0);
        expect(done.stdout).toMatch(/done succeeded/);
        expect(await deltaRows(dir)).toEqual(expected);
      }
    };
    // Two scenarios at once, each in its own folder (a run waits much on fsync): see crash.test.ts.
    // A failed lane stops the other at its next scenario.
    await Promise.all([lane(), lane()].map((p) => p.catch((e: unknown) => ((failed = true), Promise.reject(e)))));
    expect(kills).toBeGreaterThanOrEqual(MIN_KILLS);
  }, 180_000);
});
