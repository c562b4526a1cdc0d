/**
 * A run that diverted rejected records and then failed before their commit: the records were held
 * in memory and dropped with the failed commit, so nothing is under `_rejected/`, and the next run
 * fetches (and rejects) them again. The summary said `rejected N records, diverted to
 * <output>/_rejected/` (and --json `rejected: N`, `rejectedTo`) of a folder that does not exist.
 * The failure here: a sink narrowed to DECIMAL(30,6) merging into a partition of DECIMAL(38,18)
 * BTCUSDT rows whose turnovers have 7 decimals (most of the new rows are rejected at the transform).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

vi.setConfig({ testTimeout: 60_000 });
const NOW = '2026-11-20T12:00:00Z';

function pipeline(dir: string, name: string, decimal: string): string {
  const file = join(dir, `${name}.yaml`);
  const type = decimal === '' ? '' : `    decimal: ${decimal}\n`;
  const sink = decimal === '' ? '' : `  decimal: ${decimal}\n`;
  writeFileSync(file, `name: ${name}\nsource:\n  type: kline-history\n  codes: [BTCUSDT]\n  intervals: [1m]\n  since: 2h\ntransforms:\n  - type: parse-decimals\n${type}sink:\n  type: parquet\n${sink}`);
  return file;
}

interface RunDoc {
  runs: { rows: Record<string, { received: number; written: number; merged: number; rejected: number }>; rejected: number; rejectedTo?: string }[];
}

describe('a failed run with rejected records not yet committed', () => {
  it('counts them as not committed, not as diverted to a _rejected/ that was never written', async () => {
    const dir = tempDir();
    const out = join(dir, 'lake');
    const wide = await runCli(['run', pipeline(dir, 'wide', ''), '--output', out, '--clock', NOW]);
    expect(wide.code, wide.stderr).toBe(0);

    const narrow = pipeline(dir, 'narrow', '{ precision: 30, scale: 6 }');
    const text = await runCli(['run', narrow, '--output', out, '--clock', NOW]);
    expect(text.code, text.stderr).toBe(2);
    expect(text.stderr).not.toContain('diverted to');
    expect(text.stderr).toMatch(/rows kline +121 received = 0 written \(new\) \+ 0 merged \(key already held\) \+ 0 rejected \+ 121 not committed \(the next run fetches them again\)/);
    expect(existsSync(join(out, '_rejected'))).toBe(false);

    const json = await runCli(['run', narrow, '--output', out, '--clock', NOW, '--json']);
    expect(json.code, json.stderr).toBe(2);
    const run = (JSON.parse(json.stdout) as RunDoc).runs[0]!;
    expect(run.rows.kline).toEqual({ received: 121, written: 0, merged: 0, rejected: 0 });
    expect(run.rejected).toBe(0);
    expect(run.rejectedTo).toBeUndefined();
    expect(existsSync(join(out, '_rejected'))).toBe(false);
  });
});
