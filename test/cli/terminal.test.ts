import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/api/index.js';
import { QuotaWatchingClient } from '../../src/cli/quota-watch.js';
import { jsonNoticeLine } from '../../src/cli/json-notices.js';
import { createTerminal, emitJson } from '../../src/cli/terminal.js';
import { ManualClock } from '../../src/core/clock.js';
import { QuotaExhaustedError } from '../../src/core/errors.js';

function capture() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (d: Buffer) => (text += d.toString()));
  return { stream, text: () => text };
}

describe('terminal', () => {
  it('masks every secret it was told about, raw and URL-encoded, on both streams', () => {
    const out = capture();
    const err = capture();
    const t = createTerminal({ stdout: out.stream, stderr: err.stream, stderrIsTTY: false });
    t.addSecret('tok/en+secret=1');
    t.err('failed: http://h/x?token=tok%2Fen%2Bsecret%3D1&q=1 and tok/en+secret=1');
    emitJson(t, { note: 'tok/en+secret=1' }, false);
    expect(err.text()).toBe('failed: http://h/x?token=tok/…&q=1 and tok/…\n');
    expect(JSON.parse(out.text())).toEqual({ note: 'tok/…' });
    expect(t.stderrIsTTY).toBe(false);
  });

  it("masks the environment's tokens from its first line, with nothing added: QUOTELAKE_TOKEN and every token of QUOTELAKE_TOKENS", () => {
    const err = capture();
    const env = { QUOTELAKE_TOKEN: ' single-secret-1 \n', QUOTELAKE_TOKENS: 'pool-secret-a:basic,pool-secret-b:free' };
    const t = createTerminal({ stderr: err.stream, stderrIsTTY: false, env });
    t.err('single-secret-1 pool-secret-a pool-secret-b');
    expect(err.text()).toBe('sing… pool… pool…\n');
    // A list that does not parse is masked whole.
    const bad = capture();
    createTerminal({ stderr: bad.stream, stderrIsTTY: false, env: { QUOTELAKE_TOKENS: 'no-plan-secret-xyz' } }).err('got no-plan-secret-xyz');
    expect(bad.text()).toBe('got no-p…\n');
  });

  it('a notice: the text for a person, or after jsonNotices() a JSON line with its fields, the secret masked in its escaped form too', () => {
    const err = capture();
    const t = createTerminal({ stderr: err.stream, stderrIsTTY: false });
    const secret = 'sk"q\\uote';
    t.addSecret(secret);
    t.notice(`quotelake: refused ${secret}`, { event: 'signal' }, 'for a person');
    t.jsonNotices(jsonNoticeLine(new ManualClock('2026-11-20T00:00:00Z')));
    t.notice(`quotelake worker: refused ${secret}`, { level: 'error', event: 'error', code: 'QL_X', detail: secret });
    const [plain, json] = err.text().split('\n');
    expect(plain).toBe('for a person');
    expect(json).not.toContain('uote');
    expect(JSON.parse(json!)).toEqual({ level: 'error', time: '2026-11-20T00:00:00.000Z', event: 'error', code: 'QL_X', detail: expect.stringMatching(/…$/), msg: expect.stringMatching(/^refused sk.*…$/) });
  });
});

describe('QuotaWatchingClient', () => {
  it('passes calls through and remembers the first quota error', async () => {
    const resetAt = new Date('2026-11-23T00:00:00Z');
    let calls = 0;
    const inner = {
      plan: 'free',
      runId: 'r',
      kline: async () => {
        calls++;
        if (calls > 1) throw new QuotaExhaustedError({ resetAt, used: 1000, limit: 1000 });
        return { code: 'BTCUSDT', klineType: 1, bars: [], trace: 't' };
      },
      requestCounts: () => ({ '/quote-b-api/kline': calls }),
    } as unknown as ServiceClient;
    const client = new QuotaWatchingClient(inner);
    expect(client.plan).toBe('free');
    await expect(client.kline({ code: 'BTCUSDT', klineType: 1, count: 1 })).resolves.toMatchObject({ code: 'BTCUSDT' });
    expect(client.exhausted()).toBeUndefined();
    await expect(client.kline({ code: 'BTCUSDT', klineType: 1, count: 1 })).rejects.toBeInstanceOf(QuotaExhaustedError);
    expect(client.exhausted()?.resetAt).toEqual(resetAt);
    expect(client.requestCounts()).toEqual({ '/quote-b-api/kline': 2 });
  });
});
