/**
 * A metrics endpoint or textfile that cannot be set up stops the command before any request, and
 * its message and hint name the metrics option the user gave (--metrics-port, --metrics-host,
 * --metrics-textfile), not `--port` or `--output`, whose words the same Node errors carry elsewhere.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, vi, type TestContext } from 'vitest';
import { runCli, tempDir, type CliResult } from './helpers/cli.js';
import { serveChild } from './helpers/serve.js';

vi.setConfig({ testTimeout: 60_000 });
const NOW = '2026-11-20T00:00:00Z';
const TOKEN = 'metrics-setup-token';

interface ErrorDoc {
  exitCode: number;
  error?: { code: string; message: string; hint?: string };
  runs?: unknown[];
}

/** The emulator's count of the token's requests today (its admin endpoint; null before the first). */
async function requestsSeen(url: string): Promise<number> {
  const answer = (await (await fetch(`${url}/_emulator/usage?token=${TOKEN}`)).json()) as { usage: { day: { used: number } } | null };
  return answer.usage?.day.used ?? 0;
}

/**
 * `run kline-update` against an emulator of its own with this --metrics-textfile, its output under
 * `dir`: the result, and how many requests the emulator saw.
 */
async function runWithTextfile(onTestFinished: TestContext['onTestFinished'], dir: string, textfile: string): Promise<{ r: CliResult; requests: number }> {
  const emu = await serveChild([{ token: TOKEN, plan: 'professional' }], ['--clock', NOW]);
  onTestFinished(() => emu.stop());
  const r = await runCli(['run', 'kline-update', '--base-url', emu.url, '--plan', 'professional', '--output', join(dir, 'lake'), '--clock', NOW, '--json', '--metrics-textfile', textfile], {
    env: { QUOTELAKE_TOKEN: TOKEN },
  });
  return { r, requests: await requestsSeen(emu.url) };
}

describe.concurrent('metrics that cannot be set up', () => {
  it('a --metrics-port in use: exit 2 before any request, naming --metrics-port in the message and the hint', async ({ onTestFinished }) => {
    const emu = await serveChild([{ token: TOKEN, plan: 'professional' }], ['--clock', NOW]);
    onTestFinished(() => emu.stop());
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => holder.close(() => resolve())));
    const port = (holder.address() as AddressInfo).port;
    const out = tempDir();
    const r = await runCli(['run', 'kline-update', '--base-url', emu.url, '--plan', 'professional', '--output', out, '--clock', NOW, '--json', '--metrics-port', String(port)], {
      env: { QUOTELAKE_TOKEN: TOKEN },
    });
    expect(r.code, r.stderr).toBe(2);
    const doc = JSON.parse(r.stdout) as ErrorDoc;
    expect(doc.exitCode).toBe(2);
    expect(doc.error!.code).toBe('QL_PORT_IN_USE');
    expect(doc.error!.message).toBe(`--metrics-port ${port}: 127.0.0.1:${port} is already in use by another process (EADDRINUSE)`);
    expect(doc.error!.hint).toBe('choose another --metrics-port (0 picks a free one), or stop the process that holds it');
    expect(r.stderr).not.toMatch(/--port\b/);
    expect(doc.runs ?? []).toEqual([]);
    expect(await requestsSeen(emu.url)).toBe(0);
  });

  it('a --metrics-textfile under a file: exit 2 before any request, naming --metrics-textfile, not --output', async ({ onTestFinished }) => {
    const dir = tempDir();
    const blocker = join(dir, 'not-a-folder');
    writeFileSync(blocker, 'x');
    const path = join(blocker, 'quotelake.prom');
    const { r, requests } = await runWithTextfile(onTestFinished, dir, path);
    expect(r.code, r.stderr).toBe(2);
    const doc = JSON.parse(r.stdout) as ErrorDoc;
    // The folder is not made (it must exist): the temp file beside the target is the first thing opened.
    expect(doc.error!.code).toBe('QL_OUTPUT_MISSING');
    expect(doc.error!.message).toBe(`--metrics-textfile ${path}: ${blocker}: a part of this path is a file, not a folder (ENOTDIR, open)`);
    expect(doc.error!.hint).toBe('choose a --metrics-textfile whose parents are folders, not files');
    expect(r.stderr).not.toContain('--output');
    expect(requests).toBe(0);
  });

  it('a --metrics-textfile whose folder does not exist: exit 2 before any request, naming the folder and --metrics-textfile; nothing created', async ({ onTestFinished }) => {
    const dir = tempDir();
    // A typo in the collector's folder: files there would reach no collector.
    const folder = join(dir, 'textfle', 'collector');
    const path = join(folder, 'quotelake.prom');
    const { r, requests } = await runWithTextfile(onTestFinished, dir, path);
    expect(r.code, r.stderr).toBe(2);
    const doc = JSON.parse(r.stdout) as ErrorDoc;
    expect(doc.error!.code).toBe('QL_OUTPUT_MISSING');
    expect(doc.error!.message).toBe(`--metrics-textfile ${path}: the folder ${folder} does not exist`);
    expect(doc.error!.hint).toBe(`create it (mkdir -p ${folder}) or fix the --metrics-textfile path: node_exporter reads only its --collector.textfile.directory`);
    expect(readdirSync(dir)).toEqual([]);
    expect(requests).toBe(0);
  });

  it('a --metrics-textfile that is a folder: exit 2 before any request, naming the folder and --metrics-textfile', async ({ onTestFinished }) => {
    const dir = tempDir();
    const folder = join(dir, 'textfiles');
    mkdirSync(folder);
    const { r, requests } = await runWithTextfile(onTestFinished, dir, folder);
    expect(r.code, r.stderr).toBe(2);
    const doc = JSON.parse(r.stdout) as ErrorDoc;
    expect(doc.error!.code).toBe('QL_OUTPUT_MISSING');
    expect(doc.error!.message).toBe(`--metrics-textfile ${folder}: ${folder} is a folder, where a file is written (EISDIR, rename)`);
    expect(doc.error!.hint).toBe('name a file, not a folder: choose another --metrics-textfile');
    expect(r.stderr).not.toContain('bug');
    // Nothing left beside it: no temp file of the failed write.
    expect(readdirSync(dir).sort()).toEqual(['textfiles']);
    expect(requests).toBe(0);
  });

  it('a --metrics-textfile ending in "/" (the collector folder without a file name): exit 2 before any request, saying it names a folder, not that a folder is a file', async ({ onTestFinished }) => {
    const dir = tempDir();
    const folder = join(dir, 'textfile');
    mkdirSync(folder);
    // Node's rename onto "folder/" says ENOTDIR, which read as "a part of this path is a file".
    const given = `${folder}/`;
    const { r, requests } = await runWithTextfile(onTestFinished, dir, given);
    expect(r.code, r.stderr).toBe(2);
    const doc = JSON.parse(r.stdout) as ErrorDoc;
    expect(doc.error!.code).toBe('QL_OUTPUT_MISSING');
    expect(doc.error!.message).toBe(`--metrics-textfile ${given}: ends in "/", so it names a folder, where a file is written`);
    expect(doc.error!.hint).toBe(`name a file in it: --metrics-textfile ${join(folder, 'quotelake.prom')} (node_exporter reads only *.prom files)`);
    expect(r.stderr).not.toContain('a part of this path is a file');
    expect(readdirSync(dir).sort()).toEqual(['textfile']);
    expect(readdirSync(folder)).toEqual([]);
    expect(requests).toBe(0);
  });

  it('a --metrics-host name that does not resolve: exit 2, naming --metrics-host, not --metrics-port or --base-url', async () => {
    const r = await runCli(['run', 'kline-update', '--output', tempDir(), '--clock', NOW, '--json', '--metrics-port', '0', '--metrics-host', 'no-such-host.invalid']);
    expect(r.code, r.stderr).toBe(2);
    const doc = JSON.parse(r.stdout) as ErrorDoc;
    expect(doc.error!.code).toBe('QL_HOST_UNKNOWN');
    expect(doc.error!.message).toBe('--metrics-host no-such-host.invalid: host no-such-host.invalid is not known (ENOTFOUND: the name does not resolve)');
    expect(doc.error!.hint).toBe('check --metrics-host for a typo: an address of this machine or a name it resolves (127.0.0.1 by default, 0.0.0.0 for every interface)');
  });

  it('a --metrics-host this machine does not have: exit 2, naming --metrics-host', async () => {
    const r = await runCli(['run', 'kline-update', '--output', tempDir(), '--clock', NOW, '--json', '--metrics-port', '0', '--metrics-host', '192.0.2.1']);
    expect(r.code, r.stderr).toBe(2);
    const doc = JSON.parse(r.stdout) as ErrorDoc;
    expect(doc.error!.code).toBe('QL_PORT_DENIED');
    expect(doc.error!.message).toBe('--metrics-host 192.0.2.1: 192.0.2.1 is not an address of this machine (EADDRNOTAVAIL)');
    expect(doc.error!.hint).toBe('choose a --metrics-host this machine has (127.0.0.1, 0.0.0.0 or one of its interfaces)');
  });
});
