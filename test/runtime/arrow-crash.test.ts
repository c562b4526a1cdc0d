/**
 * Crash safety of the Arrow sink: the crash fixture's pipeline (built code, child process) into
 * Arrow IPC files, SIGKILLed at seeded random moments. After every kill each file the manifest
 * lists is a whole IPC file (ARROW1 at both ends, its listed size); after a final run the rows read
 * back with apache-arrow equal those of an uninterrupted run (no gap, no duplicate key, the forming
 * bars made final) and the tree holds exactly the listed files.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tableFromIPC } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { formatDecimalWords } from '../../src/core/decimal.js';
import { mulberry32 } from '../../src/core/mulberry32.js';
import { runCrashChild, seededKillMoments } from '../helpers/crash-child.js';
import { allFiles } from '../helpers/all-files.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/crash-run.mjs', import.meta.url));
const MANIFEST = '_quotelake/manifests/kline.arrow.json';
const MIN_KILLS = Number(process.env.QL_CRASH_KILLS ?? 8);

interface Listed {
  path: string;
  rows: number;
  bytes: number;
}
const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')) as { files: Listed[]; retired: Listed[] };

/** Every row of the listed files, every column as text (decimals exact), in key order. */
function rowsOf(dir: string): string[] {
  const rows: string[] = [];
  for (const f of manifestOf(dir).files) {
    const table = tableFromIPC(readFileSync(join(dir, 'kline', f.path)));
    expect(table.numRows, f.path).toBe(f.rows);
    for (const row of table) {
      const cells = table.schema.fields.map((field) => {
        const v = row[field.name] as unknown;
        return field.typeId === 7 ? formatDecimalWords(v as Uint32Array, 0, (field.type as { scale: number }).scale) : String(v);
      });
      rows.push(cells.join('|'));
    }
  }
  return rows.sort();
}

/** What a reader following the manifest may open at any moment: whole IPC files of the listed size. */
async function listedFilesWhole(dir: string): Promise<void> {
  if (!existsSync(join(dir, MANIFEST))) return;
  const m = manifestOf(dir);
  for (const f of [...m.files, ...m.retired]) {
    const bytes = readFileSync(join(dir, 'kline', f.path));
    expect(bytes.byteLength, f.path).toBe(f.bytes);
    expect([bytes.subarray(0, 6).toString(), bytes.subarray(-6).toString()], f.path).toEqual(['ARROW1', 'ARROW1']);
  }
}

/** After a completed run: the listed files only, no staging, no temp file. */
async function exactTree(dir: string): Promise<void> {
  const files = allFiles(dir).map((f) => relative(dir, f)).filter((f) => !f.startsWith('.state/'));
  const m = manifestOf(dir);
  expect(files.filter((f) => !f.startsWith('kline/')).sort()).toEqual(['_quotelake/layout.json', MANIFEST]);
  expect(files.filter((f) => f.startsWith('kline/')).sort()).toEqual([...m.files, ...m.retired].map((f) => `kline/${f.path}`).sort());
  for (const f of m.files) expect((await stat(join(dir, 'kline', f.path))).size).toBe(f.bytes);
}

describe('crash safety (arrow sink)', () => {
  it(`SIGKILL at ${MIN_KILLS}+ seeded random moments never loses, duplicates or exposes partial data`, async () => {
    const baseline = await mkdtemp(join(tmpdir(), 'ql-arrow-crash-base-'));
    const base = await runCrashChild([FIXTURE, baseline, 'arrow']);
    expect(base.code, base.stderr).toBe(0);
    const expected = rowsOf(baseline);
    // 2 codes x 96 bars, the last one final too (the fixture's last batch has no forming bar).
    expect(expected.length).toBe(192);
    expect(new Set(expected.map((r) => r.split('|').slice(0, 2).join('|'))).size).toBe(192);
    await exactTree(baseline);

    const momentsOf = seededKillMoments(mulberry32(20261130), base.ms * 0.9);
    let kills = 0;
    for (let n = 0; kills < MIN_KILLS; n++) {
      expect(n).toBeLessThan(40);
      const dir = await mkdtemp(join(tmpdir(), `ql-arrow-crash-${n + 1}-`));
      for (const killAfterMs of momentsOf(n)) {
        const r = await runCrashChild([FIXTURE, dir, 'arrow'], killAfterMs);
        if (r.killed) kills++;
        else expect(r.code, r.stderr).toBe(0);
        await listedFilesWhole(dir);
      }
      const done = await runCrashChild([FIXTURE, dir, 'arrow']);
      expect(done.code, done.stderr).toBe(0);
      expect(done.stdout).toMatch(/done succeeded/);
      expect(rowsOf(dir)).toEqual(expected);
      await exactTree(dir);
    }
    // A few dozen runs one after another, as in delta-crash: the default 30 s is too short on a loaded machine.
  }, 180_000);
});
