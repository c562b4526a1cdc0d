/**
 * Periodic --metrics-textfile writes that fail during a long run: said once per cause (the option,
 * the path, the cause, what to do), not at every interval; said again when a write succeeds again.
 * A folder removed mid-run is told, not made again where the collector may no longer look.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parseExposition, valueOf } from '../helpers/prom-text.js';
import { startCli, tempDir } from './helpers/cli.js';

vi.setConfig({ testTimeout: 60_000 });
const NOW = '2026-11-20T00:00:00Z';
const INTERVAL_S = 0.1;

/** A pipeline that polls order books for a minute against the built-in emulator: a run that lasts. */
function pollingPipeline(dir: string): string {
  const file = join(dir, 'books.yaml');
  writeFileSync(
    file,
    ['name: books', 'source:', '  type: depth-snapshot', '  codes: [BTCUSDT]', '  everySeconds: 1', '  durationSeconds: 60', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet', ''].join('\n'),
  );
  return file;
}

/** Waits `n` write intervals of the run, so that several periodic writes meet the same failure (on a busy machine, fewer). */
const intervals = (n: number) => new Promise((resolve) => setTimeout(resolve, n * INTERVAL_S * 1000));

/** How often `part` occurs in `text`. */
const count = (text: string, part: string) => text.split(part).length - 1;

describe.concurrent('periodic --metrics-textfile writes that fail', () => {
  it('each cause is said once with its hint, a recovery once; the run goes on and its final write lands', async () => {
    const dir = tempDir();
    const folder = join(dir, 'collector');
    mkdirSync(folder);
    const textfile = join(folder, 'q.prom');
    const cli = startCli(['run', pollingPipeline(dir), '--output', join(dir, 'lake'), '--clock', NOW, '--quiet', '--metrics-textfile', textfile, '--metrics-interval', String(INTERVAL_S), '--stop-timeout', '30']);
    while (!existsSync(textfile)) await new Promise((resolve) => setTimeout(resolve, 10));

    // The collector's folder removed: one line, however many writes fail.
    rmSync(folder, { recursive: true });
    await cli.waitForStderr(/does not exist \(a periodic write/);
    await intervals(20);
    expect(existsSync(folder)).toBe(false);
    // Back, but a folder where the file goes: another cause, one more line.
    mkdirSync(textfile, { recursive: true });
    await cli.waitForStderr(/EISDIR, rename\) \(the periodic writes now fail otherwise/);
    await intervals(20);
    rmSync(textfile, { recursive: true });
    const recovered = await cli.waitForStderr(/written again after (\d+) failed writes\n/);
    cli.child.kill('SIGINT');
    const r = await cli.result;
    expect(r.code, r.stderr).toBe(130);

    const every = `the run goes on and tries again every ${INTERVAL_S} s, said again when a write succeeds or fails otherwise`;
    const end = 'the write at the end of the run must succeed, or the command ends with this error';
    expect(r.stderr).toContain(
      `quotelake: --metrics-textfile ${textfile}: the folder ${folder} does not exist (a periodic write; ${every})\n` +
        `  hint: create it (mkdir -p ${folder}) or fix the --metrics-textfile path: node_exporter reads only its --collector.textfile.directory; ${end}\n`,
    );
    expect(r.stderr).toContain(
      `quotelake: --metrics-textfile ${textfile}: ${textfile} is a folder, where a file is written (EISDIR, rename) (the periodic writes now fail otherwise; ${every})\n` +
        `  hint: name a file, not a folder: choose another --metrics-textfile; ${end}\n`,
    );
    expect(count(r.stderr, 'does not exist')).toBe(1);
    expect(count(r.stderr, 'EISDIR')).toBe(1);
    expect(count(r.stderr, 'written again after')).toBe(1);
    // More writes failed than lines were said (two causes, one line each).
    expect(Number(recovered[1])).toBeGreaterThan(2);
    const e = parseExposition(readFileSync(textfile, 'utf8'));
    expect(valueOf(e, 'quotelake_run_duration_seconds_count', { pipeline: 'books', status: 'interrupted' })).toBe(1);
  });

  it('--log-format json: one metrics-textfile-error line per cause with code and hint, one metrics-textfile-recovered line', async () => {
    const dir = tempDir();
    const folder = join(dir, 'collector');
    mkdirSync(folder);
    const textfile = join(folder, 'q.prom');
    const cli = startCli(['run', pollingPipeline(dir), '--output', join(dir, 'lake'), '--clock', NOW, '--quiet', '--log-format', 'json', '--metrics-textfile', textfile, '--metrics-interval', String(INTERVAL_S), '--stop-timeout', '30']);
    while (!existsSync(textfile)) await new Promise((resolve) => setTimeout(resolve, 10));
    rmSync(folder, { recursive: true });
    await cli.waitForStderr(/"event":"metrics-textfile-error"/);
    await intervals(20);
    mkdirSync(folder);
    await cli.waitForStderr(/"event":"metrics-textfile-recovered"/);
    cli.child.kill('SIGINT');
    const r = await cli.result;
    const lines = r.stderr.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const errors = lines.filter((l) => l.event === 'metrics-textfile-error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ level: 'warn', path: textfile, code: 'QL_OUTPUT_MISSING', msg: expect.stringContaining(`the folder ${folder} does not exist (a periodic write;`) as unknown });
    expect(errors[0]!.hint).toContain(`mkdir -p ${folder}`);
    const recovered = lines.filter((l) => l.event === 'metrics-textfile-recovered');
    expect(recovered).toHaveLength(1);
    expect(recovered[0]).toMatchObject({ level: 'info', path: textfile });
    expect(recovered[0]!.failedWrites).toBeGreaterThan(1);
  });

  it('a folder removed and not brought back: the final write fails naming --metrics-textfile and the folder, not made again', async () => {
    const dir = tempDir();
    const folder = join(dir, 'collector');
    mkdirSync(folder);
    const textfile = join(folder, 'q.prom');
    const cli = startCli(['run', pollingPipeline(dir), '--output', join(dir, 'lake'), '--clock', NOW, '--quiet', '--json', '--metrics-textfile', textfile, '--metrics-interval', String(INTERVAL_S), '--stop-timeout', '30']);
    while (!existsSync(textfile)) await new Promise((resolve) => setTimeout(resolve, 10));
    rmSync(folder, { recursive: true });
    await cli.waitForStderr(/does not exist \(a periodic write/);
    cli.child.kill('SIGINT');
    const r = await cli.result;
    const doc = JSON.parse(r.stdout) as { exitCode: number; runs: { status: string }[]; error?: { code: string; message: string; hint: string } };
    expect(r.code, r.stderr).toBe(2);
    expect(doc.exitCode).toBe(2);
    expect(doc.runs.map((x) => x.status)).toEqual(['interrupted']);
    expect(doc.error).toEqual({
      code: 'QL_OUTPUT_MISSING',
      message: `--metrics-textfile ${textfile}: the folder ${folder} does not exist`,
      hint: `create it (mkdir -p ${folder}) or fix the --metrics-textfile path: node_exporter reads only its --collector.textfile.directory`,
    });
    expect(existsSync(folder)).toBe(false);
  });
});
