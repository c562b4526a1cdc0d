/**
 * A Delta table whose `_delta_log/` lost every version (its JSON commits deleted, or the folder
 * itself) is still known to be one: its manifest records the kind. Before, it read as a hive
 * dataset: `inspect` and `repair --dry-run` called it sound, and a run wrote on without a log
 * (with `--table hive`, or on S3 with no flag at all), so Delta readers no longer opened the table
 * as the one it was. Now inspect names it (exit 1), a run refuses it before any request (exit 1,
 * QL_DELTA_LOG, the hint naming repair), and `repair --yes` writes a new log naming the manifest's
 * live files, after which the table reads as before and runs go on. The built CLI, its embedded
 * emulator at frozen instants, and s3rver on loopback.
 */
import { DeleteObjectsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useS3Server } from '../helpers/s3-server.js';
import { replayJsonLog } from '../lake/delta/protocol-replay.js';
import { duck } from '../sinks/helpers.js';
import { allFiles, runCli, tempDir } from './helpers/cli.js';

const FIRST = '2026-11-20T00:00:00Z';
const SECOND = '2026-11-20T00:30:00Z';
const THIRD = '2026-11-20T01:00:00Z';
const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

const livePaths = (out: string): string[] =>
  (JSON.parse(readFileSync(join(out, '_quotelake/manifests/kline.parquet.json'), 'utf8')) as { files: { path: string }[] }).files.map((f) => f.path).sort();

const rowsOf = (files: string[]) =>
  duck(
    `SELECT code, interval, epoch_ms(ts)::VARCHAR ts, open::VARCHAR o, close::VARCHAR c, volume::VARCHAR v, final ` +
      `FROM read_parquet([${files.map((f) => `'${f}'`).join(',')}], hive_partitioning = true) ORDER BY code, interval, ts`,
  );

interface RunDoc {
  exitCode: number;
  runs: { requestsTotal: number; error?: { code: string; message: string; hint?: string } }[];
}

describe('a Delta table whose log lost every version', () => {
  const server = useS3Server();
  it('in a folder: inspect names it, runs refuse it before any request, repair writes the log again from the manifest', async () => {
    const out = tempDir('ql-lost-log-');
    const run = (clock: string, extra: string[] = []) =>
      runCli(['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '6h', '--output', out, '--clock', clock, '--json', ...extra]);
    expect((await run(FIRST, ['--table', 'delta'])).code).toBe(0);
    expect((await run(SECOND)).code).toBe(0);
    const live = livePaths(out);
    const before = await rowsOf(live.map((p) => join(out, 'kline', p)));
    expect(before.length).toBeGreaterThan(390);
    const log = join(out, 'kline/_delta_log');
    for (const name of readdirSync(log)) rmSync(join(log, name));

    const inspect = await runCli(['inspect', '--output', out]);
    expect(inspect.code).toBe(1);
    expect(inspect.stdout).toContain(`problem: kline: a Delta table (its manifest records it) whose _delta_log/ holds no version: Delta readers no longer open it, and runs refuse to write it; restore the log from a backup of the output, or "quotelake repair --output ${out} --dry-run" shows the new log it would write from the manifest's ${live.length} live files, --yes writes it`);

    const files = allFiles(out).filter((f) => f.endsWith('.parquet')).sort();
    // Told nothing, told hive, told delta: each refused before a request, nothing written.
    for (const extra of [[], ['--table', 'hive'], ['--table', 'delta']]) {
      const refused = await run(THIRD, extra);
      expect(refused.code, refused.stderr).toBe(1);
      const doc = JSON.parse(refused.stdout) as RunDoc;
      expect(doc.runs[0]!.error?.code).toBe('QL_DELTA_LOG');
      expect(doc.runs[0]!.error?.message).toContain(`${out}/kline is a Delta table (its manifest records it) whose _delta_log/ holds no version any more`);
      expect(refused.stderr).toContain(`"quotelake repair --output ${out} --dry-run" shows it, --yes writes it; then run again`);
      expect(doc.runs[0]!.requestsTotal).toBe(0);
    }
    // The folder itself gone: the same.
    rmSync(log, { recursive: true });
    const noFolder = await run(THIRD);
    expect(noFolder.code).toBe(1);
    expect(noFolder.stderr).toContain('holds no version any more');
    expect(allFiles(out).filter((f) => f.endsWith('.parquet')).sort()).toEqual(files);
    expect(existsSync(log)).toBe(false);

    const dry = await runCli(['repair', '--output', out, '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    const doc = JSON.parse(dry.stdout) as { datasets: { delta: boolean; logLost: boolean; logMismatches: { key: string; problem: string }[] }[] };
    expect(doc.datasets[0]).toMatchObject({ delta: true, logLost: true });
    expect(doc.datasets[0]!.logMismatches).toEqual(live.map((p) => ({ key: `kline/${p}`, problem: 'in the manifest, not in the Delta log (it holds no version)' })));
    expect(existsSync(log)).toBe(false);

    const fixed = await runCli(['repair', '--output', out, '--yes', '--clock', THIRD]);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stdout).toContain(`kline.parquet (Delta): its _delta_log/ holds no version (deleted, or lost with a disk), so Delta readers no longer open it and runs refuse to write it; a new log was written naming the manifest's ${live.length} live files:`);
    const replayed = await replayJsonLog(join(out, 'kline'));
    expect(replayed.version).toBe(0);
    expect([...replayed.live.keys()].sort()).toEqual(live);
    expect(replayed.partitionColumns).toEqual(['interval', 'year', 'date']);
    expect(await rowsOf([...replayed.live.keys()].map((p) => join(out, 'kline', p)))).toEqual(before);
    expect((await runCli(['inspect', '--output', out])).code).toBe(0);
    expect((await runCli(['repair', '--output', out, '--dry-run'])).stdout).toBe('kline.parquet (Delta): all 4 live files read\n');

    // The next run writes the table on, its log with it.
    const next = await run(THIRD);
    expect(next.code, next.stderr).toBe(0);
    const after = await replayJsonLog(join(out, 'kline'));
    expect(after.version).toBe(1);
    expect([...after.live.keys()].sort()).toEqual(livePaths(out));
  }, 120_000);

  it('on S3: a run told nothing refuses it rather than writing on as hive; repair writes the log again', async () => {
    const work = tempDir('ql-lost-log-s3-');
    const output = `s3://${server().bucket}/lake`;
    const s3 = ['--s3-endpoint', server().endpoint];
    const run = (clock: string) =>
      runCli(['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '6h', '--output', output, ...s3, '--clock', clock, '--json', '--quiet'], { cwd: work, env: CREDENTIALS });
    const keys = async (prefix: string): Promise<string[]> => {
      const page = await server().client().send(new ListObjectsV2Command({ Bucket: server().bucket, Prefix: `lake/${prefix}` }));
      return (page.Contents ?? []).map((o) => o.Key!).sort();
    };
    expect((await run(FIRST)).code).toBe(0);
    expect((await run(SECOND)).code).toBe(0);
    const logKeys = await keys('kline/_delta_log/');
    expect(logKeys.length).toBe(2);
    await server().client().send(new DeleteObjectsCommand({ Bucket: server().bucket, Delete: { Objects: logKeys.map((Key) => ({ Key })) } }));
    const data = await keys('kline/');

    const inspect = await runCli(['inspect', '--output', output, ...s3], { cwd: work, env: CREDENTIALS });
    expect(inspect.code).toBe(1);
    expect(inspect.stdout).toContain('whose _delta_log/ holds no version');
    const refused = await run(THIRD);
    expect(refused.code, refused.stderr).toBe(1);
    expect((JSON.parse(refused.stdout) as RunDoc).runs[0]!.error?.code).toBe('QL_DELTA_LOG');
    expect(await keys('kline/')).toEqual(data);

    const fixed = await runCli(['repair', '--output', output, ...s3, '--yes', '--clock', THIRD], { cwd: work, env: CREDENTIALS });
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(await keys('kline/_delta_log/')).toEqual(['lake/kline/_delta_log/00000000000000000000.json']);
    const next = await run(THIRD);
    expect(next.code, next.stderr).toBe(0);
    expect(await keys('kline/_delta_log/')).toEqual(['lake/kline/_delta_log/00000000000000000000.json', 'lake/kline/_delta_log/00000000000000000001.json']);
  }, 120_000);
  it('with its checkpoint kept: repair writes the version after it that names the manifest\'s files, and runs go on', async () => {
    const out = tempDir('ql-lost-commits-');
    const run = (minute: number) =>
      runCli(['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '2h', '--output', out, '--clock', `2026-11-20T00:${String(minute).padStart(2, '0')}:30Z`, '--table', 'delta', '--quiet']);
    expect((await run(0)).code).toBe(0);
    const log = join(out, 'kline/_delta_log');
    // Another engine sets the table's checkpoint interval to 2 (its version 1, as delta-rs's
    // set_table_properties writes it): quotelake's version 2 is then checkpointed.
    const metaData = readFileSync(join(log, '00000000000000000000.json'), 'utf8')
      .split('\n')
      .map((line) => (line === '' ? {} : (JSON.parse(line) as { metaData?: { configuration: Record<string, string> } })))
      .find((action) => action.metaData !== undefined)!.metaData!;
    metaData.configuration = { ...metaData.configuration, 'delta.checkpointInterval': '2' };
    const setProperties = { commitInfo: { timestamp: Date.parse('2026-11-20T00:00:40Z'), operation: 'SET TBLPROPERTIES', operationParameters: {}, engineInfo: 'delta-rs' } };
    writeFileSync(join(log, '00000000000000000001.json'), `${JSON.stringify(setProperties)}\n${JSON.stringify({ metaData })}\n`);
    expect((await run(1)).code).toBe(0);
    expect(readdirSync(log)).toContain('00000000000000000002.checkpoint.parquet');
    for (const name of readdirSync(log).filter((n) => n.endsWith('.json'))) rmSync(join(log, name));
    // The manifest's files are the checkpoint's: the log is readable and sound as it stands.
    expect((await runCli(['inspect', '--output', out])).code).toBe(0);
    // A run's version 3 goes after the checkpoint (its JSON commit is not needed to read or extend the log).
    const next = await run(3);
    expect(next.code, next.stderr).toBe(0);
    expect(readdirSync(log).filter((n) => n.endsWith('.json'))).toEqual(['00000000000000000003.json']);
    // Version 3 lost too: the log (checkpoint 2) and the manifest disagree; repair mends it with a version after the checkpoint.
    rmSync(join(log, '00000000000000000003.json'));
    const inspect = await runCli(['inspect', '--output', out]);
    expect(inspect.code).toBe(1);
    expect(inspect.stdout).toMatch(/the Delta log and the manifest disagree on \d+ files/);
    const fixed = await runCli(['repair', '--output', out, '--yes', '--clock', '2026-11-20T00:04:00Z']);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(readdirSync(log).filter((n) => n.endsWith('.json'))).toEqual(['00000000000000000003.json']);
    expect((await runCli(['inspect', '--output', out])).code).toBe(0);
    // The next version, 4, is checkpointed too: the interval is the table's, kept in its checkpoint.
    expect((await run(5)).code).toBe(0);
    expect(readdirSync(log)).toContain('00000000000000000004.checkpoint.parquet');
    expect((await runCli(['inspect', '--output', out])).code).toBe(0);
  }, 120_000);
  it('written again at the DECIMAL(p,s) its files hold, so the pipeline that wrote it goes on', async () => {
    const out = tempDir('ql-lost-log-decimal-');
    const pipeline = join(out, 'narrow.yaml');
    writeFileSync(
      pipeline,
      ['name: narrow', 'source:', '  type: kline-history', '  codes: [BTCUSDT]', '  intervals: [1m]', '  since: 2h', 'transforms:', '  - type: parse-decimals', '    decimal: { precision: 20, scale: 8 }', 'sink:', '  type: parquet', '  table: delta', '  decimal: { precision: 20, scale: 8 }', ''].join('\n'),
    );
    const run = (clock: string) => runCli(['run', pipeline, '--output', out, '--clock', clock, '--quiet']);
    expect((await run(FIRST)).code).toBe(0);
    rmSync(join(out, 'kline/_delta_log'), { recursive: true });
    const fixed = await runCli(['repair', '--output', out, '--yes', '--clock', SECOND]);
    expect(fixed.code, fixed.stderr).toBe(0);
    const log = readFileSync(join(out, 'kline/_delta_log/00000000000000000000.json'), 'utf8');
    expect([...new Set(log.match(/decimal\(\d+,\d+\)/g))]).toEqual(['decimal(20,8)']);
    const next = await run(SECOND);
    expect(next.code, next.stderr).toBe(0);
  }, 60_000);
});

