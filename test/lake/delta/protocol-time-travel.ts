/**
 * Time travel as a Delta reader does it, written for the tests from PROTOCOL.md and independent of
 * src/lake/delta: to read version v, list `_delta_log/`, take the newest classic checkpoint at or
 * before v (read with DuckDB) and then every JSON commit after it up to v, which must all be there
 * ("Metadata Cleanup MUST provide a checkpoint for the oldest kept table version"). No
 * `_last_checkpoint`: the listing alone must be enough, as it is for a reader that lost the hint.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { duck } from '../../sinks/helpers.js';

export interface VersionRead {
  version: number;
  /** The checkpoint the read started from; undefined: from version 0. */
  fromCheckpoint?: number;
  /** Live files (decoded paths), sorted. */
  live: string[];
  /** The table's configuration at that version. */
  configuration: Record<string, string>;
}

const name = (v: number, suffix: string) => `${String(v).padStart(20, '0')}.${suffix}`;

/** The versions of the log: its JSON commits and classic checkpoints, ascending. */
export async function logVersions(tableDir: string): Promise<{ commits: number[]; checkpoints: number[] }> {
  const names = await readdir(join(tableDir, '_delta_log'));
  const of = (re: RegExp) => names.filter((n) => re.test(n)).map((n) => Number(n.slice(0, 20))).sort((a, b) => a - b);
  return { commits: of(/^\d{20}\.json$/), checkpoints: of(/^\d{20}\.checkpoint\.parquet$/) };
}

export async function readVersion(tableDir: string, version: number): Promise<VersionRead> {
  const logDir = join(tableDir, '_delta_log');
  const { commits, checkpoints } = await logVersions(tableDir);
  const start = checkpoints.filter((c) => c <= version).at(-1);
  const live = new Set<string>();
  let configuration: Record<string, string> = {};
  if (start !== undefined) {
    const file = join(logDir, name(start, 'checkpoint.parquet'));
    const rows = await duck(`SELECT add.path AS a, to_json(metaData.configuration) AS c, metaData IS NOT NULL AS m FROM read_parquet('${file.replaceAll("'", "''")}')`);
    for (const r of rows) {
      if (r.a !== null) live.add(decodeURIComponent(String(r.a)));
      if (r.m === true) configuration = JSON.parse(String(r.c)) as Record<string, string>;
    }
  }
  for (let v = (start ?? -1) + 1; v <= version; v++) {
    if (!commits.includes(v)) throw new Error(`version ${version} cannot be read: no ${name(v, 'json')} after checkpoint ${start ?? 'none'}`);
    for (const line of (await readFile(join(logDir, name(v, 'json')), 'utf8')).split('\n')) {
      if (line.trim() === '') continue;
      const action = JSON.parse(line) as { add?: { path: string }; remove?: { path: string }; metaData?: { configuration: Record<string, string> } };
      if (action.add) live.add(decodeURIComponent(action.add.path));
      if (action.remove) live.delete(decodeURIComponent(action.remove.path));
      if (action.metaData) configuration = action.metaData.configuration;
    }
  }
  return { version, ...(start !== undefined ? { fromCheckpoint: start } : {}), live: [...live].sort(), configuration };
}
