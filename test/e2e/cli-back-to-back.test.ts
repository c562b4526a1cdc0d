/**
 * Two runs on one token back to back from a script: the second counts the first's sends in its
 * windows (api/recent-sends.ts), so its first `/batch-kline` waits out the gap the first left
 * instead of being refused with a 429. Against `quotelake serve` with its clock running.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';
import { serveChild } from './helpers/serve.js';

vi.setConfig({ testTimeout: 60_000 });
const NOW = '2026-11-20T00:00:00Z';
const TOKEN = 'back-to-back-token';

interface RunDoc {
  exitCode: number;
  runs: { requestOutcomes: { answered: number; rateLimited: number } }[];
}

describe('runs back to back on one token', () => {
  it('the second run keeps to the /batch-kline gap the first left: no 429 in either', async ({ onTestFinished }) => {
    const emu = await serveChild([{ token: TOKEN, plan: 'professional' }], ['--clock', NOW, '--clock-runs']);
    onTestFinished(() => emu.stop());
    const out = tempDir();
    const run = async () => {
      const r = await runCli(['run', 'kline-update', '--base-url', emu.url, '--plan', 'professional', '--output', out, '--clock', NOW, '--json'], { env: { QUOTELAKE_TOKEN: TOKEN } });
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as RunDoc;
    };
    const first = await run();
    const second = await run();
    for (const doc of [first, second]) {
      expect(doc.runs).toHaveLength(1);
      expect(doc.runs[0]!.requestOutcomes.answered).toBeGreaterThan(0);
      expect(doc.runs[0]!.requestOutcomes.rateLimited).toBe(0);
    }
    expect(readdirSync(join(out, '.state', 'quota')).filter((f) => f.endsWith('.sends.json'))).toHaveLength(1);
  });

  it('against the built-in emulator, which starts empty with each process, no sends are kept or waited for', async () => {
    const out = tempDir();
    const r = await runCli(['run', 'kline-update', '--output', out, '--clock', NOW, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as RunDoc).runs[0]!.requestOutcomes.answered).toBeGreaterThan(0);
    expect(readdirSync(join(out, '.state', 'quota')).filter((f) => f.endsWith('.sends.json'))).toEqual([]);
  });
});
