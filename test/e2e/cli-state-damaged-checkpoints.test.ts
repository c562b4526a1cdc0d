/**
 * A checkpoint file damaged outside quotelake (its saves are atomic): `state show` and `state reset`
 * cannot read it, so their refusal says the way out (remove the file, or restore it), not the
 * generic "fix the pipeline file", which names a file that is fine.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

describe('a damaged checkpoint file', () => {
  it('show and reset exit 2 with a hint that names the file to remove; removed, the pipeline has no checkpoints', async () => {
    const out = tempDir('ql-damaged-state-');
    const file = join(out, '.state', 'checkpoints', 'daily.json');
    mkdirSync(join(out, '.state', 'checkpoints'), { recursive: true });
    const hint = `  hint: the checkpoints of pipeline "daily" are damaged (changed outside quotelake): restore the file from a backup, or remove it (rm ${file}) and the next run fetches this pipeline's streams again from since, merging the rows by key (data files are kept)`;
    for (const text of ['{"version":1,', '{"version":1}']) {
      writeFileSync(file, text);
      const [show, reset, json] = await Promise.all([
        runCli(['state', 'show', '--output', out]),
        runCli(['state', 'reset', 'daily', '--output', out, '--yes']),
        runCli(['state', 'reset', 'daily', '--output', out, '--yes', '--json']),
      ]);
      expect([show.code, reset.code, json.code]).toEqual([2, 2, 2]);
      expect(show.stderr.split('\n')[1]).toBe(hint);
      expect(reset.stderr.split('\n')[1]).toBe(hint);
      expect(JSON.parse(json.stdout)).toMatchObject({ command: 'state reset', exitCode: 2, error: { code: 'QL_CONFIG', hint: hint.replace('  hint: ', '') } });
      expect(existsSync(file)).toBe(true);
    }
    rmSync(file);
    const after = await runCli(['state', 'show', '--output', out]);
    expect(after.code).toBe(0);
    expect(after.stdout).toBe(`quotelake: no checkpoints under ${join(out, '.state')} (no pipeline has committed into ${out} yet)\n`);
  }, 30_000);

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
