/** The one reader of the lake: footers, series ranges, statistics and projected rows of live files. */
export { boundedMap } from './bounded-map.js';
export type { ColumnStats, FileFooter, FooterColumn, StatValue } from './file-footer.js';
export { readParquetFooter } from './parquet-footer.js';
export { readArrowFooter } from './arrow-footer.js';
export { readKeyTimes, type KeyTimes } from './file-key-times.js';
export { listedTimes } from './listed-times.js';
export type { TimeRun } from '../commit/time-runs.js';
export { readFileRows, type CellValue, type LakeRow } from './file-rows.js';
export { addSeries, parseSeriesMetadata, SERIES_METADATA_KEY, type SeriesRange } from './file-series.js';
export { summarizeFile, type FileSummary } from './file-summary.js';
export { lakeDataset, lakeDatasets, type LakeDataset, type LakeFile, type LakeFormat } from './lake-files.js';
export { DEFAULT_CONCURRENCY, summarizeLake, type DatasetSummary, type ReadOptions, type ReadProgress } from './read-lake.js';
export { readLakeRecords, readLakeRows, type RowReadOptions } from './read-rows.js';
