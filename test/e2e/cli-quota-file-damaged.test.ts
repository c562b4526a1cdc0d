/**
 * A quota file damaged outside quotelake (a hand edit, a copy cut short): it holds no count, so a
 * run on its token stops with exit 2 naming the file and what to do, before any request, and
 * `quotelake quota` names it too. Before: the run took it as today's quota used up and exited 75
 * ("resets at midnight"), on every day after too, while `quota` said no file was there.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { tokenHash16 } from '../../src/api/index.js';
import { runCli, tempDir } from './helpers/cli.js';

vi.setConfig({ testTimeout: 60_000 });
const NOW = '2026-11-20T10:00:00Z';
const NEXT_WEEK = '2026-11-27T10:00:00Z';

function damagedQuotaFile(stateDir: string, text: string): string {
  const dir = join(stateDir, 'quota');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${tokenHash16('demo-professional')}.json`);
  writeFileSync(file, text);
  return file;
}

describe('a damaged quota file', () => {
  it('stops a run with exit 2 naming the file, today and on any later day; nothing is sent', async () => {
    const out = tempDir();
    const file = damagedQuotaFile(join(out, '.state'), '{"version":1,"day":"2026-11-20","us');
    for (const clock of [NOW, NEXT_WEEK]) {
      const r = await runCli(['run', 'kline-update', '--output', out, '--clock', clock, '--json']);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`${file}: quota file is damaged: not valid JSON`);
      expect(r.stderr).toMatch(/hint: remove the file/);
      expect(r.stderr).not.toMatch(/daily request quota is used up/);
      const doc = JSON.parse(r.stdout) as { exitCode: number; runs: { requestsTotal: number }[] };
      expect(doc.exitCode).toBe(2);
      expect(doc.runs[0]!.requestsTotal).toBe(0);
    }
  });

  it('a file of today whose count is not a number is damaged too (not a count of 0)', async () => {
    const out = tempDir();
    damagedQuotaFile(join(out, '.state'), '{"version":1,"day":"2026-11-20","timeZone":"UTC","used":"1728000","limit":1728000}\n');
    const r = await runCli(['run', 'kline-update', '--output', out, '--clock', NOW]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('quota file is damaged: "used" is "1728000", not a count');
  });

  it('quota names it, in text and in --json, instead of "no quota files"', async () => {
    const stateDir = tempDir();
    const file = damagedQuotaFile(stateDir, '{"used":');
    const [text, json] = await Promise.all([
      runCli(['quota', '--state-dir', stateDir, '--clock', NOW]),
      runCli(['quota', '--state-dir', stateDir, '--clock', NOW, '--json']),
    ]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).not.toContain('no quota files');
    expect(text.stdout).toContain(`demo-professional (the emulator's demo token): ${file} is damaged (not valid JSON): a run on this token stops with exit 2 until the file is removed`);
    const doc = JSON.parse(json.stdout) as { tokens: unknown[]; damaged: unknown[] };
    expect(doc.tokens).toEqual([]);
    expect(doc.damaged).toEqual([{ token: "demo-professional (the emulator's demo token)", tokenHash: tokenHash16('demo-professional'), file, problem: 'not valid JSON' }]);
  });
});
