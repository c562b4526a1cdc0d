/** A halt record that holds the token: masked in every field (text or nested), flagged; others pass untouched. */
import { describe, expect, it } from 'vitest';
import { redactText } from '../../src/core/redact.js';
import { withoutEchoedSecret } from '../../src/sources/trading-halts/echoed-secret.js';
import type { RawHalt } from '../../src/core/records.js';

const TOKEN = 'tok-echo-5d2c9a';
const redact = (text: string) => redactText(text, TOKEN);
const raw = (record: unknown): RawHalt => ({ exchange: 'sse', record: record as RawHalt['record'], fetchedAtMs: 0 });

describe('withoutEchoedSecret', () => {
  it('masks the token in text and nested fields and flags the first field that held it', () => {
    const out = withoutEchoedSecret(raw({ symbol: '600000', haltReason: `see ?token=${TOKEN}`, extra: { url: `x?token=${encodeURIComponent(TOKEN)}` } }), redact);
    expect(out.record).toEqual({ symbol: '600000', haltReason: 'see ?token=tok-…', extra: { url: 'x?token=tok-…' } });
    expect(out.flaw).toEqual({ code: 'QL_SECRET_ECHOED', field: 'haltReason', value: 'see ?token=tok-…', reason: expect.stringContaining('holds the API token') });
  });

  it('passes a record without the token, a record that is no object, and any record without a redactor, unchanged', () => {
    for (const record of [{ symbol: '600000', haltReason: 'plain', n: 3 }, null, 'a string', [1, 2]]) {
      const r = raw(record);
      expect(withoutEchoedSecret(r, redact)).toBe(r);
    }
    const r = raw({ haltReason: TOKEN });
    expect(withoutEchoedSecret(r, undefined)).toBe(r);
  });
});
