/**
 * The lake read back, dataset by dataset, from footers: the manifest's live files summed up in
 * parallel (bounded), with progress reported per file. Totals, partitions and series merged over
 * files; problems listed, never thrown.
 */
import { boundedMap } from './bounded-map.js';
import { addSeries, type SeriesRange } from './file-series.js';
import { summarizeFile, type FileSummary } from './file-summary.js';
import type { LakeLocation } from '../storage/storage-of.js';
import { lakeDataset, lakeDatasets, type LakeDataset, type LakeFormat } from './lake-files.js';

/** Files read at a time: enough to overlap the I/O of small footers, few enough for any fd limit. */
export const DEFAULT_CONCURRENCY = 16;

export interface ReadProgress {
  /** Called after each file with the files done and the total over every dataset of the call. */
  (done: number, total: number): void;
}

export interface ReadOptions {
  readonly concurrency?: number;
  readonly onProgress?: ReadProgress;
  /** Rows and time range per series (default true). */
  readonly series?: boolean;
}

export interface DatasetSummary {
  readonly dataset: string;
  readonly format: LakeFormat;
  /** Files the manifest lists, `unreadable` included. */
  readonly files: number;
  /** Of those, files missing or whose footer cannot be read: their rows and bytes are not counted. */
  readonly unreadable: number;
  /** Bytes of the files found (a missing file counts 0). */
  readonly bytes: number;
  /** Rows by the footers of the files read. */
  readonly rows: number;
  readonly partitions: readonly string[];
  /** Display name (`BTCUSDT 1m`, `AAPL.US`, `nyse`) → rows and first/last epoch ms, sorted by name. */
  readonly series: ReadonlyMap<string, SeriesRange>;
  readonly problems: readonly string[];
  readonly updatedAt: string;
  readonly perFile: readonly FileSummary[];
}

export function sumDataset(ds: LakeDataset, perFile: readonly FileSummary[]): DatasetSummary {
  const series = new Map<string, SeriesRange>();
  let rows = 0;
  let bytes = 0;
  let unreadable = 0;
  for (const f of perFile) {
    if (f.footer) {
      rows += f.footer.rows;
      bytes += f.footer.bytes;
    } else unreadable++;
    if (f.series) addSeries(series, f.series);
  }
  return {
    dataset: ds.dataset,
    format: ds.format,
    files: ds.files.length,
    unreadable,
    bytes,
    rows,
    partitions: [...new Set(ds.files.map((f) => f.partition))].sort(),
    series: new Map([...series.entries()].sort(([a], [b]) => a.localeCompare(b))),
    problems: perFile.flatMap((f) => f.problems),
    updatedAt: ds.manifest.updatedAt,
    perFile,
  };
}

/** Summaries of the given datasets (all with a manifest when omitted), progress counted over all their files. */
export async function summarizeLake(where: LakeLocation, options: ReadOptions & { datasets?: readonly { dataset: string; format: LakeFormat }[] } = {}): Promise<DatasetSummary[]> {
  const wanted = options.datasets ?? (await lakeDatasets(where));
  const loaded = (await Promise.all(wanted.map((w) => lakeDataset(where, w.dataset, w.format)))).filter((d): d is LakeDataset => d !== undefined);
  const all = loaded.flatMap((d) => d.files);
  const summaries = await boundedMap(all, options.concurrency ?? DEFAULT_CONCURRENCY, (file) => summarizeFile(file, { series: options.series ?? true }), (done) =>
    options.onProgress?.(done, all.length),
  );
  let at = 0;
  return loaded.map((d) => {
    const mine = summaries.slice(at, at + d.files.length);
    at += d.files.length;
    return sumDataset(d, mine);
  });
}
