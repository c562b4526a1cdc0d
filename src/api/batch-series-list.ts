/**
 * The series list of a /batch-kline answer, element by element: a spec-valid service's answer of
 * many series must not fail as a whole for one element that is not a series. Such an element is
 * named (where, what, an excerpt) and left out; the item it stood for is then missing, asked
 * again, and named as not delivered if it never comes (a shortfall, never a silent success).
 */
import { batchKlineSeriesSchema, type BatchKlineSeries } from './schemas.js';
import type { MalformedBatchSeries } from './types.js';

const EXCERPT_CHARS = 200;

/** The bars an element would give, for the request's row count (0 for one that is not a series). */
export function barsIn(element: unknown): number {
  const bars = typeof element === 'object' && element !== null ? (element as { kline_data?: unknown }).kline_data : undefined;
  return Array.isArray(bars) ? bars.length : 0;
}

export function seriesOfList(endpoint: string, list: readonly unknown[]): { series: BatchKlineSeries[]; malformed: MalformedBatchSeries[] } {
  const series: BatchKlineSeries[] = [];
  const malformed: MalformedBatchSeries[] = [];
  list.forEach((element, i) => {
    const parsed = batchKlineSeriesSchema.safeParse(element);
    if (parsed.success) {
      series.push(parsed.data);
      return;
    }
    const issue = parsed.error.issues[0];
    const path = ['', ...(issue?.path ?? [])].map(String).join('.');
    const text = JSON.stringify(element) ?? String(element);
    malformed.push({
      endpoint,
      problem: `kline_list[${i}]${path}: ${issue?.message ?? 'not a series'}`,
      excerpt: text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text,
    });
  });
  return { series, malformed };
}
