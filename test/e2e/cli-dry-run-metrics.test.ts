/**
 * `run --dry-run` with the metrics options: nothing is sent, so nothing is counted. The endpoint is
 * not served and the textfile keeps what the last run wrote, and a stderr line says so rather than
 * leaving the options to look as if they worked; a textfile path the run would refuse is refused.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi, type TestContext } from 'vitest';
import { runCli, tempDir, type CliResult } from './helpers/cli.js';
import { serveChild } from './helpers/serve.js';

vi.setConfig({ testTimeout: 60_000 });
const NOW = '2026-11-20T00:00:00Z';
const TOKEN = 'dry-run-metrics-token';
const NOTICE = 'quotelake: a dry run sends no request, so there is nothing to count';

/** `run kline-update --dry-run` against an emulator of its own, with `extra`: the result and the requests it saw. */
async function dryRun(onTestFinished: TestContext['onTestFinished'], dir: string, extra: string[]): Promise<{ r: CliResult; requests: number }> {
  const emu = await serveChild([{ token: TOKEN, plan: 'professional' }], ['--clock', NOW]);
  onTestFinished(() => emu.stop());
  const r = await runCli(['run', 'kline-update', '--dry-run', '--base-url', emu.url, '--plan', 'professional', '--output', join(dir, 'lake'), '--clock', NOW, ...extra], {
    env: { QUOTELAKE_TOKEN: TOKEN },
  });
  const usage = (await (await fetch(`${emu.url}/_emulator/usage?token=${TOKEN}`)).json()) as { usage: { day: { used: number } } | null };
  return { r, requests: usage.usage?.day.used ?? 0 };
}

describe.concurrent('run --dry-run with metrics options', () => {
  it('a textfile is not written (the last run\'s counts stay) and stderr says the options are not used', async ({ onTestFinished }) => {
    const dir = tempDir();
    const path = join(dir, 'quotelake.prom');
    const lastRun = 'quotelake_rows_total{dataset="kline",kind="written"} 120\n';
    writeFileSync(path, lastRun);
    const { r, requests } = await dryRun(onTestFinished, dir, ['--metrics-textfile', path, '--metrics-port', '0', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { plans: unknown[] }).plans).toHaveLength(1);
    expect(r.stderr).toContain(`${NOTICE}: --metrics-port is not served and --metrics-textfile is not written (${path} keeps what it holds)\n`);
    expect(r.stderr).not.toContain('quotelake metrics on');
    expect(readFileSync(path, 'utf8')).toBe(lastRun);
    expect(readdirSync(dir).sort()).toEqual(['quotelake.prom']);
    expect(requests).toBe(0);
  });

  it('--log-format json: the notice is one JSON line naming the options', async ({ onTestFinished }) => {
    const dir = tempDir();
    const { r } = await dryRun(onTestFinished, dir, ['--metrics-port', '0', '--log-format', 'json', '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.trim().split('\n').map((l) => JSON.parse(l) as { event?: string; options?: string[]; level?: string; msg?: string });
    const notice = lines.find((l) => l.event === 'dry-run-metrics-unused');
    expect(notice).toMatchObject({ level: 'warn', options: ['--metrics-port'], msg: 'a dry run sends no request, so there is nothing to count: --metrics-port is not served' });
  });

  it('a textfile whose folder does not exist: exit 2, as the run would be, nothing created', async ({ onTestFinished }) => {
    const dir = tempDir();
    const folder = join(dir, 'textfle');
    const path = join(folder, 'quotelake.prom');
    const { r, requests } = await dryRun(onTestFinished, dir, ['--metrics-textfile', path, '--json']);
    expect(r.code, r.stderr).toBe(2);
    const doc = JSON.parse(r.stdout) as { exitCode: number; error: { code: string; message: string } };
    expect(doc.exitCode).toBe(2);
    expect(doc.error.code).toBe('QL_OUTPUT_MISSING');
    expect(doc.error.message).toBe(`--metrics-textfile ${path}: the folder ${folder} does not exist`);
    expect(readdirSync(dir)).toEqual([]);
    expect(requests).toBe(0);
  });

  it('without metrics options: no such line', async ({ onTestFinished }) => {
    const { r } = await dryRun(onTestFinished, tempDir(), []);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain(NOTICE);
  });
});
