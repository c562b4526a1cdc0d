/**
 * Trading-halt (suspension) records of the emulator: SSE, NYSE and NASDAQ.
 *
 * For the HTTP layer of /api/suspension/{sse,nyse,nasdaq}:
 *   const records = archive.records(exchange, clock.now());
 *   const paging = parseHaltPaging(url.searchParams.get('page'), url.searchParams.get('size'));
 *   if (!paging.ok) -> HTTP 500 { success: false, error: paging.error }
 *   else if (paging.paging === null) -> { success, timestamp, totalCount: records.length, data: records }
 *   else pageHalts(records, page, size) -> { success, timestamp, totalCount, data, totalPages, currentPage, currentSize }
 *        (an { ok: false, error } result is also HTTP 500)
 * Records are frozen objects shared between calls: serialise them, do not edit them. A halt whose
 * resumption is announced after its publication keeps its identity but changes content once: its
 * resume fields are blank (null, "" or absent, fixed per record) until `now` reaches the
 * announcement, then filled. Exchange holidays are not modelled (every weekday trades).
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
