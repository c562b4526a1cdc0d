/**
 * `run --full-refresh` over a checkpoint file damaged outside quotelake: a full refresh reads no
 * checkpoint, so it goes on, says so, and its first commit replaces the file; the lake's data stays.
 * A refresh that commits nothing leaves the damaged file as it was.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allFiles, runCli, tempDir } from './helpers/cli.js';

const ARGS = ['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '1d', '--clock', '2026-11-20T00:00:00Z'];
const DAMAGED = '{"streams';

function damage(output: string): string {
  const file = join(output, '.state', 'checkpoints', 'kline-backfill.json');
  mkdirSync(join(output, '.state', 'checkpoints'), { recursive: true });
  writeFileSync(file, DAMAGED);
  return file;
}

/** The lake's series as `inspect` reads them (rows, first, last). */
async function series(output: string): Promise<unknown> {
  const r = await runCli(['inspect', '--output', output, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { datasets: { series: unknown }[] }).datasets.map((d) => d.series);
}

describe('run --full-refresh over a damaged checkpoint file', () => {
  it('goes on, says so, replaces the file by its first commit and keeps the data', async () => {
    const output = tempDir();
    const first = await runCli([...ARGS, '--output', output, '--quiet']);
    expect(first.code, first.stderr).toBe(0);
    const saved = JSON.parse(readFileSync(join(output, '.state', 'checkpoints', 'kline-backfill.json'), 'utf8')) as { streams: object };
    const held = await series(output);
    const runRecords = allFiles(join(output, '.state', 'runs'));
    expect(runRecords.length).toBe(1);
    const file = damage(output);

    const r = await runCli([...ARGS, '--output', output, '--full-refresh', '--yes', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`kline-backfill: a damaged checkpoint file, replaced whole by the first commit (${file}: checkpoint file is not valid JSON`);
    expect(r.stderr).toContain(`WARN: full refresh: ${file}: checkpoint file is not valid JSON`);
    expect(r.stderr).toContain('"action":"damaged-checkpoint-replaced"');
    const run = (JSON.parse(r.stdout) as { runs: { status: string; rows: { kline: { received: number; written: number; merged: number } } }[] }).runs[0]!;
    expect(run.rows.kline.received).toBe(1466);
    expect(run.rows.kline.written).toBe(0);
    expect(run.rows.kline.merged).toBe(1466);
    // The same positions as before the damage; the lake holds the same rows, the run history stays.
    expect((JSON.parse(readFileSync(file, 'utf8')) as { streams: object }).streams).toEqual(saved.streams);
    expect(await series(output)).toEqual(held);
    expect(allFiles(join(output, '.state', 'runs'))).toEqual(expect.arrayContaining(runRecords));

    const plain = await runCli([...ARGS, '--output', output, '--quiet']);
    expect(plain.code, plain.stderr).toBe(0);
  }, 90_000);

  it('a refresh that commits nothing (the service refuses the connection) leaves the damaged file as it was', async () => {
    const output = tempDir();
    const file = damage(output);
    const r = await runCli([...ARGS, '--output', output, '--full-refresh', '--yes', '--base-url', 'http://127.0.0.1:9', '--token', 'demo-professional', '--quiet']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('full refresh: ');
    expect(readFileSync(file, 'utf8')).toBe(DAMAGED);
  }, 90_000);

  it('without --yes off a terminal: exit 2, the file untouched', async () => {
    const output = tempDir();
    const file = damage(output);
    const r = await runCli([...ARGS, '--output', output, '--full-refresh']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('a damaged checkpoint file, replaced whole by the first commit');
    expect(readFileSync(file, 'utf8')).toBe(DAMAGED);
  }, 60_000);
});
