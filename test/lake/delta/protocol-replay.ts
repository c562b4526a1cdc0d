/**
 * A Delta reader written for the tests from PROTOCOL.md alone, independent of src/lake/delta: list
 * `_delta_log/`, take the JSON commits in version order, keep the newest file action per path
 * (the path decoded as the URI it is); `add` wins → live. JSON commits only (no checkpoint).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface Replayed {
  version: number;
  /** Live files: decoded path → partitionValues. */
  live: Map<string, Record<string, string | null>>;
  txns: Record<string, number>;
  partitionColumns: string[];
}

export async function replayJsonLog(tableDir: string): Promise<Replayed> {
  const logDir = join(tableDir, '_delta_log');
  const names = (await readdir(logDir)).filter((n) => /^\d{20}\.json$/.test(n)).sort();
  names.forEach((n, i) => {
    if (Number(n.slice(0, 20)) !== i) throw new Error(`log is not contiguous at ${n}`);
  });
  const live = new Map<string, Record<string, string | null>>();
  const txns: Record<string, number> = {};
  let partitionColumns: string[] = [];
  for (const name of names) {
    for (const line of (await readFile(join(logDir, name), 'utf8')).split('\n')) {
      if (line.trim() === '') continue;
      const action = JSON.parse(line) as Record<string, Record<string, unknown>>;
      if (action.add) live.set(decodeURIComponent(action.add.path as string), action.add.partitionValues as Record<string, string | null>);
      if (action.remove) live.delete(decodeURIComponent(action.remove.path as string));
      if (action.txn) txns[action.txn.appId as string] = action.txn.version as number;
      if (action.metaData) partitionColumns = action.metaData.partitionColumns as string[];
    }
  }
  return { version: names.length - 1, live, txns, partitionColumns };
}
