/**
 * A Parquet run whose sink `decimal` is narrower than the files a hive dataset already holds: the
 * merge into a held partition cannot rewrite their values without rounding, so the commit stops.
 * It said only `column turnover: value "…" does not fit DECIMAL(30,4)` (exit 1) with the hint to
 * run the same command again, which fails the same way every time. (GOLD's values fit 4 decimals,
 * BTCUSDT's turnovers have 7: the GOLD run's file is compacted with the BTCUSDT one of its day.) It must name the lake's type and
 * the way out (exit 2), and leave the lake as it was.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

vi.setConfig({ testTimeout: 60_000 });
const NOW = '2026-11-20T12:00:00Z';

function pipeline(dir: string, name: string, code: string, decimal: string): string {
  const file = join(dir, `${name}.yaml`);
  const type = decimal === '' ? '' : `    decimal: ${decimal}\n`;
  const sink = decimal === '' ? '' : `  decimal: ${decimal}\n`;
  writeFileSync(file, `name: ${name}\nsource:\n  type: kline-history\n  codes: [${code}]\n  intervals: [1m]\n  since: 2h\ntransforms:\n  - type: parse-decimals\n${type}sink:\n  type: parquet\n${sink}`);
  return file;
}

describe('a sink decimal narrower than the files a hive dataset holds', () => {
  it('stops the merge with exit 2 naming the lake\'s DECIMAL and the fix; the live files stay', async () => {
    const dir = tempDir();
    const out = join(dir, 'lake');
    const wide = await runCli(['run', pipeline(dir, 'wide', 'BTCUSDT', ''), '--output', out, '--clock', NOW]);
    expect(wide.code, wide.stderr).toBe(0);
    const manifest = join(out, '_quotelake', 'manifests', 'kline.parquet.json');
    const before = (JSON.parse(readFileSync(manifest, 'utf8')) as { files: unknown[] }).files;

    const narrow = await runCli(['run', pipeline(dir, 'narrow', 'GOLD', '{ precision: 30, scale: 4 }'), '--output', out, '--clock', NOW]);
    expect(narrow.code, narrow.stderr).toBe(2);
    expect(narrow.stderr).toMatch(/kline: interval=1m\/year=2026\/date=2026-11-20 holds rows written as DECIMAL\(38,18\) that the sink's DECIMAL\(30,4\) cannot hold \(column \w+: value "[0-9.]+" does not fit DECIMAL\(30,4\)\)/);
    expect(narrow.stderr).toContain("hint: set the sink's decimal to { precision: 38, scale: 18 } (the lake's), or write DECIMAL(30,4) to a new output");
    expect(narrow.stderr).not.toContain('run the same command again');
    expect((JSON.parse(readFileSync(manifest, 'utf8')) as { files: unknown[] }).files).toEqual(before);
  });
});
