/**
 * The coverage report of an output folder, read through the lake reader: of the kline dataset only
 * `ts` (and `code` where a file holds several), as arrays; of the halt dataset only the columns a
 * halt window needs. `series` narrows it to a pipeline's own series and, for the run summary, to the
 * range the run touched: files of other intervals, days, codes or times are skipped unread (path
 * and manifest key ranges).
 */
import { stat } from 'node:fs/promises';
import { ConfigError, QuotelakeError } from '../core/errors.js';
import { isS3Url } from '../core/s3-url.js';
import type { LakeLocation } from '../lake/storage/storage-of.js';
import type { HaltRow, KlineRow } from '../core/records.js';
import { lakeDatasets, readLakeRecords, readLakeRows, type LakeFormat } from '../lake/reader/index.js';
import { bySeries, totalsOf, type CoverageOptions, type CoverageReport, type SeriesCoverage } from './coverage-report.js';
import { HaltIndex, type HaltLike } from './halt-windows.js';
import { klinePartitions, type WantedSeries } from './kline-partitions.js';
import { SeriesAudit } from './series-audit.js';

export type OutputFormat = LakeFormat;

/** A series a report may be narrowed to, and optionally the bar opens (ms, inclusive) to cover of it. */
export type SeriesRef = WantedSeries;

export interface OutputCoverageOptions extends Omit<CoverageOptions, 'halts'> {
  readonly format?: OutputFormat;
  /**
   * Only these series (default: every series the lake holds), each within its `from`..`to` when
   * given (a run's own range): files outside it are not read, and bars outside it not counted.
   */
  readonly series?: readonly SeriesRef[];
}

/** Every live kline row as a typed record (exact decimals). */
export function readKlineRows(outputDir: LakeLocation, format: OutputFormat = 'parquet'): Promise<KlineRow[]> {
  return readLakeRecords(outputDir, 'kline', format);
}

/** Every live halt row as a typed record. */
export function readHaltRows(outputDir: LakeLocation, format: OutputFormat = 'parquet'): Promise<HaltRow[]> {
  return readLakeRecords(outputDir, 'halt', format);
}

/**
 * The report of a lake, streamed: partition by partition in time order into one SeriesAudit per
 * series (the previous bar, counters, a capped gap list), so its memory does not grow with the lake.
 * The halt dataset is read whole (a few rows per halt, the windows the classification needs).
 */
export async function coverageOfOutput(outputDir: LakeLocation, options: OutputCoverageOptions = {}): Promise<CoverageReport> {
  if (typeof outputDir === 'string') await mustBeFolder(outputDir);
  const { format = 'parquet', series, listClosed, symbolMapping, historyBegins } = options;
  // The halt dataset of the same output, in whichever format a pipeline wrote it (a halts pipeline
  // may write Arrow beside Parquet K-lines): never only the K-lines' format.
  const haltFormats = (await lakeDatasets(outputDir)).filter((d) => d.dataset === 'halt').map((d) => d.format);
  const haltRows: HaltLike[] = [];
  for (const f of haltFormats.length > 0 ? haltFormats : [format]) {
    haltRows.push(...((await readLakeRows(outputDir, 'halt', f, ['exchange', 'symbol', 'halt_at', 'halt_local', 'resume_trade_at', 'resume_quote_at', 'resume_local'])) as unknown as HaltLike[]));
  }
  const halts = haltRows.length > 0 ? new HaltIndex(haltRows, symbolMapping) : null;
  const auditOptions = { halts, ...(listClosed !== undefined ? { listClosed } : {}) };
  const ranges = new Map((series ?? []).map((s) => [`${s.code}\u0000${s.interval}`, s]));
  const audits = new Map<string, SeriesAudit>();
  for await (const part of klinePartitions(outputDir, format, series)) {
    for (const [code, opens] of part.byCode) {
      const key = `${code}\u0000${part.interval}`;
      let audit = audits.get(key);
      if (!audit) {
        const asked = ranges.get(key);
        audits.set(key, (audit = new SeriesAudit(code, part.interval, auditOptions, asked?.expectFrom === true ? asked.from : undefined)));
      }
      for (let i = 0; i < opens.length; i++) audit.add(opens[i]!);
    }
  }
  const out: SeriesCoverage[] = [];
  for (const [key, audit] of audits) {
    const asked = ranges.get(key);
    const begins = historyBegins?.get(`${audit.code} ${audit.interval}`);
    const range = asked?.from !== undefined || asked?.to !== undefined ? { ...(asked.from !== undefined ? { from: asked.from } : {}), ...(asked.to !== undefined ? { to: asked.to } : {}) } : undefined;
    const result = audit.result({ ...(begins !== undefined ? { historyBegins: begins } : {}), ...(range ? { range } : {}) });
    if (result) out.push(result);
  }
  out.sort(bySeries);
  return { series: out, totals: totalsOf(out), haltsUsed: halts !== null };
}

/** A path that is no folder is a wrong path, not a lake with nothing in it (an empty report would say all is well). */
async function mustBeFolder(path: string): Promise<void> {
  if (isS3Url(path)) throw new ConfigError(`${path}: an s3:// lake is read through its storage, not by path (on the command line: quotelake inspect ${path} --coverage)`);
  const st = await stat(path).catch(() => undefined);
  if (!st?.isDirectory()) throw new QuotelakeError('QL_OUTPUT_MISSING', `${path} is not a folder`, { stage: 'plan', hint: 'give the output folder a run wrote into' });
}
