/**
 * Trading-halt (suspension) records of the emulator: SSE, NYSE and NASDAQ.
 *
 * For the HTTP layer of /api/suspension/{sse,nyse,nasdaq}:
 *   const records = archive.records(exchange, clock.now());
 *   const paging = parseHaltPaging(url.searchParams.get('page'), url.searchParams.get('size'));
 *   if (!paging.ok) -> HTTP 500 { success: false, error: paging.error }
 *   else if (paging.paging === null) -> { success, timestamp, totalCount: records.length, data: records }
 *   else pageHalts(records, page, size) -> { success, timestamp, totalCount, data, totalPages, currentPage, currentSize }
 */
export { HaltArchive, HALT_ZONES, type HaltArchiveOptions } from './halt-archive.js';
export type { HaltEvent } from './halt-event.js';
export {
  HALT_PAGE_SIZE_MAX,
  HALT_PAGE_SIZE_MIN,
  pageHalts,
  parseHaltPaging,
  type HaltPage,
  type HaltPageResult,
  type HaltPagingResult,
} from './page-halts.js';
