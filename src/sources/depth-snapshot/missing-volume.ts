/**
 * A book level without a volume, where the product's book carries volumes. Spec 2.2 lets some CFD
 * indexes send none (stored as NULL); forex, metals, energy, stocks and crypto always do, so a
 * level of theirs without one is a malformed record, never a NULL passed off as "no volume".
 * Codes outside the catalog are taken as sent: nothing says what their book carries.
 */
import { findProduct } from '../../catalog/index.js';
import type { RecordFlaw } from '../../core/record-flaw.js';
import { VALUE_MALFORMED } from '../../core/reject-codes.js';

export function missingVolumeFlaw(tick: unknown): RecordFlaw | undefined {
  if (tick === null || typeof tick !== 'object') return undefined;
  const { code, bids, asks } = tick as { code?: unknown; bids?: unknown; asks?: unknown };
  if (typeof code !== 'string' || findProduct(code)?.bookHasVolume !== true) return undefined;
  for (const [side, levels] of [['bids', bids], ['asks', asks]] as const) {
    if (!Array.isArray(levels)) continue;
    for (let i = 0; i < levels.length; i++) {
      const level = levels[i] as { volume?: unknown } | null;
      if (level === null || typeof level !== 'object') continue;
      const volume = level.volume;
      if (volume === undefined || volume === null || volume === '') {
        return { code: VALUE_MALFORMED, field: `${side}[${i}].volume`, value: volume === null ? 'null' : '', reason: `${volume === undefined ? 'is missing' : `${JSON.stringify(volume)} is empty`}: the book of ${code} carries volumes (spec 2.2)` };
      }
    }
  }
  return undefined;
}
