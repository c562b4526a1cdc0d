/**
 * A Delta table through the built CLI: `run --table delta` writes `kline/_delta_log/` whose replay
 * (the test reader) names exactly the files the manifest lists and reads back, through DuckDB,
 * equal to a hive run of the same window; a second run's merge logs its removes; `vacuum` refuses a
 * short retention, lists and deletes only unreferenced files older than the retention; Arrow and
 * NDJSON sinks refuse `table: delta` with file:line:column or the flag named.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replayJsonLog } from '../lake/delta/protocol-replay.js';
import { duck } from '../sinks/helpers.js';
import { runCli, tempDir } from './helpers/cli.js';

const NOW = '2026-11-20T00:00:00Z';
const LATER = '2026-11-20T00:30:00Z';
const run = (out: string, clock: string, extra: string[] = []) =>
  runCli(['run', 'kline-backfill', '--codes', 'BTCUSDT,SHIBUSDT', '--since', '6h', '--output', out, '--clock', clock, '--json', ...extra]);

function manifestPaths(out: string): string[] {
  const m = JSON.parse(readFileSync(join(out, '_quotelake/manifests/kline.parquet.json'), 'utf8')) as { files: { path: string }[] };
  return m.files.map((f) => f.path).sort();
}

const rows = (files: string[]) =>
  duck(
    `SELECT code, interval, epoch_ms(ts)::VARCHAR ts, open::VARCHAR o, high::VARCHAR h, low::VARCHAR l, close::VARCHAR c, volume::VARCHAR v, turnover::VARCHAR t, final ` +
      `FROM read_parquet([${files.map((f) => `'${f}'`).join(',')}], hive_partitioning = true) ORDER BY code, interval, ts`,
  );

describe('quotelake run --table delta, and quotelake vacuum', () => {
  it('writes a Delta table equal to a hive run; vacuum deletes only what the log no longer references, past the retention', async () => {
    const [delta, hive] = [tempDir('ql-cli-delta-'), tempDir('ql-cli-hive-')];
    const [d1, h1] = await Promise.all([run(delta, NOW, ['--table', 'delta']), run(hive, NOW)]);
    expect(d1.code, d1.stderr).toBe(0);
    expect(h1.code, h1.stderr).toBe(0);
    expect(existsSync(join(hive, 'kline/_delta_log'))).toBe(false);
    const replayed = await replayJsonLog(join(delta, 'kline'));
    expect([...replayed.live.keys()].sort()).toEqual(manifestPaths(delta));
    expect(replayed.partitionColumns).toEqual(['interval', 'year', 'date']);
    const deltaRows = await rows([...replayed.live.keys()].map((p) => join(delta, 'kline', p)));
    expect(deltaRows.length).toBeGreaterThan(700);
    expect(deltaRows).toEqual(await rows(manifestPaths(hive).map((p) => join(hive, 'kline', p))));
    // One watermark per code and interval, the newest bar's open time in epoch ms.
    const series = ['BTCUSDT%2F1h', 'BTCUSDT%2F1m', 'SHIBUSDT%2F1h', 'SHIBUSDT%2F1m'];
    expect(Object.keys(replayed.txns).sort()).toEqual(series.map((s) => `quotelake:kline-backfill:${s}`));
    const newest1m = await duck(`SELECT max(epoch_ms(ts))::BIGINT m FROM read_parquet('${join(hive, 'kline/interval=1m/**/*.parquet')}') WHERE code = 'BTCUSDT'`);
    expect(replayed.txns['quotelake:kline-backfill:BTCUSDT%2F1m']).toBe(Number(newest1m[0]!.m));

    // Half an hour later the newest bars are fetched again: their files are merged, the old ones
    // removed. No --table: a dataset with a log stays a Delta table; table: hive on it is refused.
    const h2 = await run(delta, LATER, ['--table', 'hive']);
    expect(h2.code).toBe(2);
    expect(h2.stderr).toMatch(/kline is a Delta table \(it has a _delta_log\/\): set sink.table: delta/);
    const d2 = await run(delta, LATER);
    expect(d2.code, d2.stderr).toBe(0);
    const after = await replayJsonLog(join(delta, 'kline'));
    expect(after.version).toBeGreaterThan(replayed.version);
    expect([...after.live.keys()].sort()).toEqual(manifestPaths(delta));
    const removed = [...replayed.live.keys()].filter((p) => !after.live.has(p));
    expect(removed.length).toBeGreaterThan(0);

    // Shorter than the default retention: refused unless forced.
    const short = await runCli(['vacuum', '--output', delta, '--retention', '1h']);
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/--retention 1h is shorter than the default 168h/);
    // A log retention shorter than the files' would leave versions whose files are kept unreadable.
    const shortLog = await runCli(['vacuum', '--output', delta, '--log-retention', '24h']);
    expect(shortLog.code).toBe(2);
    expect(shortLog.stderr).toContain('--log-retention 24h is shorter than --retention 168h: versions whose files are still kept could no longer be read');
    // Within the retention: nothing to delete.
    const within = await runCli(['vacuum', '--output', delta, '--clock', LATER]);
    expect(within.code, within.stderr).toBe(0);
    expect(within.stdout).toMatch(/kline: Delta version \d+: deleted 0 unreferenced files/);
    // Eight days on: a dry run lists the removed files, the real one deletes them and nothing else.
    const eightDays = '2026-11-28T01:00:00Z';
    const dry = await runCli(['vacuum', '--output', delta, '--clock', eightDays, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    const listed = [...dry.stdout.matchAll(/^would delete kline\/(.+)$/gm)].map((m) => m[1]!).sort();
    expect(listed).toEqual([...removed].sort());
    for (const p of removed) expect(existsSync(join(delta, 'kline', p))).toBe(true);
    const real = await runCli(['vacuum', '--output', delta, '--clock', eightDays]);
    expect(real.code, real.stderr).toBe(0);
    expect([...real.stdout.matchAll(/^deleted kline\/(.+)$/gm)].map((m) => m[1]!).sort()).toEqual(listed);
    for (const p of removed) expect(existsSync(join(delta, 'kline', p))).toBe(false);
    for (const p of after.live.keys()) expect(existsSync(join(delta, 'kline', p))).toBe(true);
    // The log is younger than its retention (720h by default): whole.
    expect(readdirSync(join(delta, 'kline/_delta_log')).length).toBeGreaterThan(after.version);
    expect(real.stdout).not.toContain('Delta log:');
    const again = await rows([...after.live.keys()].map((p) => join(delta, 'kline', p)));
    expect(again.length).toBeGreaterThanOrEqual(deltaRows.length);
  }, 120_000);

  it('refuses table: delta for the Arrow and NDJSON sinks', async () => {
    const out = tempDir();
    const flag = await runCli(['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '1h', '--output', out, '--clock', NOW, '--format', 'arrow', '--table', 'delta']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/--table delta.*the arrow sink cannot keep a Delta log/s);
    const file = join(out, 'ndjson-delta.yaml');
    writeFileSync(file, ['name: ndjson-delta', 'source:', '  type: trade-snapshot', '  codes: [BTCUSDT]', 'sink:', '  type: ndjson', '  table: delta', ''].join('\n'));
    const validate = await runCli(['validate', file]);
    expect(validate.code).toBe(2);
    expect(validate.stderr).toContain(`${file}:7:10`);
    expect(validate.stderr).toMatch(/the ndjson sink cannot keep a Delta log/);
  });
});
