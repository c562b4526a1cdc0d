/**
 * An All-* plan covers only its market, and the service refuses a whole request (`ret 604`) for
 * one code outside it. The error names only the codes outside the plan's market (once each), and
 * the hint names the market, so a user does not drop the codes the plan does cover. Before: every
 * code of the request was named unauthorized (a /batch-kline code once per interval) and the hint
 * said to drop "these products".
 */
import { describe, expect, it, vi } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

vi.setConfig({ testTimeout: 60_000 });
const NOW = '2026-11-20T15:00:00Z';

interface RunDoc {
  exitCode: number;
  runs: { error: { code: string; message: string; hint: string } }[];
}

describe('a code outside an All-* plan\'s market', () => {
  it('kline-latest on all-us: names 700.HK and 600000.SH once each, not the US codes, and the market in the hint', async () => {
    const r = await runCli(['run', 'kline-update', '--plan', 'all-us', '--codes', 'AAPL.US,TSLA.US,700.HK,600000.SH', '--output', tempDir(), '--clock', NOW, '--json', '--quiet']);
    expect(r.code, r.stderr).toBe(1);
    const error = (JSON.parse(r.stdout) as RunDoc).runs[0]!.error;
    expect(error.code).toBe('QL_API_CODE_UNAUTHORIZED');
    expect(error.message).toMatch(/^\/quote-stock-b-api\/batch-kline: ret 604 code unauthorized for 700\.HK,600000\.SH \(trace /);
    expect(error.hint).toBe('plan all-us covers only US stocks (.US): drop the codes outside it from codes, or fetch them with a token on a plan that covers them');
    expect(r.stderr).toContain('ret 604 code unauthorized for 700.HK,600000.SH (trace');
  });

  it('depth-snapshot on all-hk: the stock request names only AAPL.US', async () => {
    const r = await runCli(['run', 'snapshots', '--plan', 'all-hk', '--codes', '700.HK,857.HK,AAPL.US', '--output', tempDir(), '--clock', NOW, '--json', '--quiet']);
    expect(r.code, r.stderr).toBe(1);
    const error = (JSON.parse(r.stdout) as RunDoc).runs[0]!.error;
    expect(error.message).toMatch(/^\/quote-stock-b-api\/depth-tick: ret 604 code unauthorized for AAPL\.US \(trace /);
    expect(error.hint).toMatch(/^plan all-hk covers only HK stocks \(\.HK\)/);
  });
});
