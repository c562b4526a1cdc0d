/**
 * A checkpoint file damaged outside quotelake (its saves are atomic): `state show` and a reset of
 * some streams cannot read it, so their refusal says the way out (a reset of the whole pipeline,
 * which removes the file, or a backup), not the generic "fix the pipeline file", which names a
 * file that is fine. The whole reset asks and takes the lock as any reset.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

describe('a damaged checkpoint file', () => {
  it('show and a reset of some streams exit 2 with a hint that names the reset that removes it; a whole reset removes it, asked and under the lock', async () => {
    const out = tempDir('ql-damaged-state-');
    const file = join(out, '.state', 'checkpoints', 'daily.json');
    mkdirSync(join(out, '.state', 'checkpoints'), { recursive: true });
    const hint = `  hint: the checkpoints of pipeline "daily" are damaged (changed outside quotelake): restore the file from a backup, or remove it with "quotelake state reset daily --output ${out}" (without --stream: the whole file goes) and the next run fetches this pipeline's streams again from since, merging the rows by key (data files are kept); a run with --full-refresh does the same and its first commit replaces the file`;
    const lock = join(out, '.quotelake.lock');
    for (const [text, why] of [
      ['{"version":1,', 'checkpoint file is not valid JSON: Expected double-quoted property name in JSON at position 13'],
      ['{"version":1}', 'checkpoint file has no streams object'],
    ] as const) {
      writeFileSync(file, text);
      const [show, some, json, unasked] = await Promise.all([
        runCli(['state', 'show', '--output', out]),
        // It cannot keep the streams --stream leaves out of a file it cannot read.
        runCli(['state', 'reset', 'daily', '--stream', 'kline/*', '--output', out, '--yes']),
        runCli(['state', 'reset', 'daily', '--stream', 'kline/*', '--output', out, '--yes', '--json']),
        runCli(['state', 'reset', 'daily', '--output', out]),
      ]);
      expect([show.code, some.code, json.code, unasked.code]).toEqual([2, 2, 2, 2]);
      expect(show.stderr.split('\n')[1]).toBe(hint);
      expect(some.stderr.split('\n')[1]).toBe(hint);
      expect(JSON.parse(json.stdout)).toMatchObject({ command: 'state reset', exitCode: 2, error: { code: 'QL_CONFIG', hint: hint.replace('  hint: ', '') } });
      // Without --yes and no terminal: listed, not removed.
      expect(unasked.stderr.split('\n').slice(0, 2)).toEqual([
        'quotelake: state reset removes 1 damaged checkpoint file(s) whole:',
        `  daily (${join(out, '.state')}): every stream; its file cannot be read, so it is removed: ${file}: ${why}`,
      ]);
      expect(existsSync(file)).toBe(true);
      // A live run holds the output: refused, nothing changed.
      writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), runId: 'r-live', pipeline: 'daily', startedAt: '2026-11-30T00:00:00.000Z' }));
      const locked = await runCli(['state', 'reset', 'daily', '--output', out, '--yes']);
      expect(locked.code, locked.stderr).toBe(1);
      expect(locked.stderr).toContain(`state reset refused, nothing changed under ${out}`);
      expect(existsSync(file)).toBe(true);
      rmSync(lock);
      // No pipeline named: every pipeline there, this one included.
      const reset = await runCli(['state', 'reset', ...(text.endsWith(',') ? ['daily'] : []), '--output', out, '--yes', '--json']);
      expect(reset.code, reset.stderr).toBe(0);
      expect(JSON.parse(reset.stdout)).toMatchObject({ command: 'state reset', exitCode: 0, reset: [{ pipeline: 'daily', stateDir: join(out, '.state'), streams: [], removedFile: file }] });
      expect(existsSync(file)).toBe(false);
      const after = await runCli(['state', 'show', '--output', out]);
      expect(after.code).toBe(0);
      expect(after.stdout).toBe(`quotelake: no checkpoints under ${join(out, '.state')} (no pipeline has committed into ${out} yet)\n`);
    }
  }, 60_000);

  it('a folder where the checkpoint file goes is named in the refusal (exit 2), with removing it as the way out', async () => {
    const out = tempDir('ql-folder-state-');
    // A shipped pipeline's name: its file is found, so its checkpoint path is read.
    const folder = join(out, '.state', 'checkpoints', 'kline-backfill.json');
    mkdirSync(folder, { recursive: true });
    // Named or found by listing the state folder, by each command alike: never "no checkpoints", exit 0.
    const results = await Promise.all([
      runCli(['state', 'reset', 'kline-backfill', '--output', out, '--yes']),
      runCli(['state', 'reset', '--output', out, '--yes']),
      runCli(['state', 'show', '--output', out]),
      runCli(['state', 'show', 'kline-backfill', '--output', out]),
      // run reads the checkpoints before any request: no service is needed to reach the refusal.
      runCli(['run', 'kline-backfill', '--output', out, '--base-url', 'http://127.0.0.1:9', '--token', 'demo-professional']),
    ]);
    // The folder is quotelake's own path: another --output is not the way out, removing it is.
    const hint = `  hint: quotelake keeps a state file of its own there (under ${join(out, '.state')}): remove that folder (rmdir ${folder}, after moving out anything kept in it) and run the same command again`;
    for (const r of results) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.split('\n')[0]).toBe(`quotelake: ${folder} is a folder, where a file is read (EISDIR, read)`);
      expect(r.stderr.split('\n')[1]).toBe(hint);
    }
  }, 30_000);
});
