/**
 * Series watermarks as Delta transaction identifiers, so the data of a run and how far each series
 * got commit in one atomic version. A `txn` carries one long per `appId`: ours is
 * `quotelake:<pipeline>:<series key>` (both parts URI-component-encoded, so a `:` in either cannot
 * blur the split) and its `version` is the series' watermark in epoch milliseconds (the newest
 * series time committed). Engines ignore it; Spark's streaming sink uses the same slot for its own ids.
 */
import type { TxnAction } from './delta-actions.js';

const PREFIX = 'quotelake:';

export function watermarkAppId(pipeline: string, seriesKey: string): string {
  return `${PREFIX}${encodeURIComponent(pipeline)}:${encodeURIComponent(seriesKey)}`;
}

export function watermarkTxn(pipeline: string, seriesKey: string, watermarkMs: number, now: number): TxnAction {
  return { appId: watermarkAppId(pipeline, seriesKey), version: watermarkMs, lastUpdated: now };
}

/** The watermarks of one pipeline among a snapshot's txns: series key → epoch ms. */
export function watermarksOf(txns: ReadonlyMap<string, TxnAction>, pipeline: string): Map<string, number> {
  const head = `${PREFIX}${encodeURIComponent(pipeline)}:`;
  const out = new Map<string, number>();
  for (const [appId, txn] of txns) {
    if (!appId.startsWith(head)) continue;
    out.set(decodeURIComponent(appId.slice(head.length)), txn.version);
  }
  return out;
}
