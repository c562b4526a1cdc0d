/**
 * `quotelake quota` for a token on a custom plan without a daily cap (`perDay: unlimited`): such a
 * plan writes no quota file (nothing is counted per request), so `quota` must say that of the token
 * it is given, not "nothing sent yet" after a run sent requests.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runCli, startCli, tempDir } from './helpers/cli.js';

vi.setConfig({ testTimeout: 60_000 });
const NOW = '2026-11-20T00:00:00Z';
const TOKEN = 'uncapped-quota-token';
const WINDOW = ['--codes', 'BTCUSDT', '--since', '2026-11-18T00:00:00Z', '--until', '2026-11-19T00:00:00Z'];

interface QuotaDoc {
  tokens: unknown[];
  uncapped?: { token: string; tokenHash: string; plan: string }[];
}

describe('quota on a plan without a daily cap', () => {
  it('after a run: names the token and its plan, says nothing is counted, not "nothing sent yet"', async ({ onTestFinished }) => {
    const dir = tempDir();
    const plans = join(dir, 'plans.yaml');
    writeFileSync(plans, `plans:\n  - name: open\n    perDay: unlimited\ntokens:\n  - token: ${TOKEN}\n    plan: open\n`);
    const emu = startCli(['serve', '--port', '0', '--plans-file', plans, '--clock', NOW, '--clock-runs']);
    onTestFinished(async () => {
      emu.child.kill('SIGTERM');
      await emu.result;
    });
    const url = (await emu.waitForStderr(/quotelake emulator listening on (http:\/\/127\.0\.0\.1:\d+)\n/))[1]!;
    const output = join(dir, 'lake');
    const env = { QUOTELAKE_TOKEN: TOKEN, QUOTELAKE_PLANS_FILE: plans, QUOTELAKE_PLAN: 'open' };
    const r = await runCli(['run', 'kline-backfill', ...WINDOW, '--base-url', url, '--output', output, '--clock', NOW, '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { runs: { requestsTotal: number }[] }).runs[0]!.requestsTotal).toBeGreaterThan(0);

    const [text, json] = await Promise.all([
      runCli(['quota', '--output', output, '--clock', NOW], { env }),
      runCli(['quota', '--output', output, '--clock', NOW, '--json'], { env }),
    ]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).not.toContain('nothing sent yet');
    expect(text.stdout).toContain('unca…: plan open has no daily cap: its requests are not counted (no quota file is written)');
    expect(text.stdout).not.toContain(TOKEN);
    expect(json.code, json.stderr).toBe(0);
    const doc = JSON.parse(json.stdout) as QuotaDoc;
    expect(doc.tokens).toEqual([]);
    expect(doc.uncapped).toEqual([{ token: 'unca…', tokenHash: expect.stringMatching(/^[0-9a-f]{16}$/) as unknown as string, plan: 'open' }]);
  });
});
