/**
 * `quotelake vacuum --retention` longer than the log retention each table takes without
 * `--log-retention` (its delta.logRetentionDuration, else 720h): refused as an explicit shorter
 * `--log-retention` is (exit 2, nothing deleted), unless `--force` or a log retention long enough.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allFiles, runCli, tempDir } from './helpers/cli.js';

const NOW = '2026-11-20T00:00:00Z';

describe('vacuum --retention without --log-retention', () => {
  it("longer than the table's log retention (720h by default): exit 2 naming the table and both retentions; --force or --log-retention lets it run", async () => {
    const out = tempDir('ql-cli-vacuum-');
    const made = await runCli(['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '1h', '--output', out, '--clock', NOW, '--table', 'delta']);
    expect(made.code, made.stderr).toBe(0);
    const before = allFiles(out).sort();

    const [longer, longerDry, equal, forced, withLog] = await Promise.all([
      runCli(['vacuum', '--output', out, '--clock', NOW, '--retention', '800h']),
      runCli(['vacuum', '--output', out, '--clock', NOW, '--retention', '800h', '--dry-run']),
      runCli(['vacuum', '--output', out, '--clock', NOW, '--retention', '720h', '--dry-run']),
      runCli(['vacuum', '--output', out, '--clock', NOW, '--retention', '800h', '--force', '--dry-run']),
      runCli(['vacuum', '--output', out, '--clock', NOW, '--retention', '800h', '--log-retention', '800h', '--dry-run']),
    ]);
    for (const refused of [longer, longerDry]) {
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(
        "quotelake: the log retention of kline, 720h (its delta.logRetentionDuration, else Delta's 30 days), is shorter than --retention 800h: versions whose files are still kept could no longer be read",
      );
      expect(refused.stderr).toContain("hint: give --log-retention 800h or more, or set the table's delta.logRetentionDuration to it, or add --force");
      expect(refused.stdout).toBe('');
    }
    expect(allFiles(out).sort()).toEqual(before);
    for (const fine of [equal, forced, withLog]) {
      expect(fine.code, fine.stderr).toBe(0);
      expect(fine.stdout).toMatch(/kline: Delta version \d+: would delete 0 unreferenced files/);
    }
    expect(readdirSync(join(out, 'kline/_delta_log')).length).toBeGreaterThan(0);
  }, 60_000);
});
