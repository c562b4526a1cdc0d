export { coverageReport, type CoverageOptions, type CoverageReport, type Gap, type GapReason, type KlineLike, type SeriesCoverage } from './coverage-report.js';
export { defaultSymbolMapping, HaltIndex, type HaltLike, type HaltWindow, type SymbolMapping } from './halt-windows.js';
export { coverageOfOutput, readHaltRows, readKlineRows, type OutputCoverageOptions, type OutputFormat, type SeriesRef } from './coverage-of-output.js';
export { formatCoverageReport } from './format-coverage.js';
