/**
 * compact, vacuum and repair work on a lake as they find it and never migrate it: a 0.1.0 lake, a
 * migration left half-way and a lake of a newer layout are refused before anything is touched,
 * instead of "nothing to compact" (exit 0) on a lake full of data.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureLayout } from '../../src/lake/layout/index.js';
import { copyOfFixture } from '../lake/layout/fixture-lake.js';
import { allFiles, runCli } from './helpers/cli.js';

const NOW = new Date('2026-11-21T00:00:00Z');
const COMMANDS = [['compact'], ['compact', '--dry-run'], ['vacuum'], ['vacuum', '--dry-run'], ['repair', '--yes'], ['repair', '--dry-run']];

describe('compact, vacuum and repair on a lake of another layout', () => {
  it('a 0.1.0 lake: exit 2 naming it and "quotelake migrate", the lake untouched', async () => {
    const out = await copyOfFixture();
    const before = allFiles(out);
    for (const args of COMMANDS) {
      const r = await runCli([...args, '--output', out]);
      expect(r.code, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`quotelake: ${out} is a lake written by quotelake 0.1.0 (layout 1)`);
      expect(r.stderr).toContain(`hint: run "quotelake migrate --output ${out}" (or any run on it) first`);
    }
    expect(allFiles(out)).toEqual(before);
  }, 60_000);

  it('a migration stopped half-way: exit 2 saying to finish it, the lake untouched', async () => {
    const out = await copyOfFixture();
    await expect(ensureLayout(out, { now: NOW, hooks: { afterStep: (s) => { if (s === 'manifests') throw new Error('killed'); } } })).rejects.toThrow('killed');
    const before = allFiles(out);
    for (const args of COMMANDS) {
      const r = await runCli([...args, '--output', out]);
      expect(r.code, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`quotelake: ${out} is being migrated from layout 1 (quotelake 0.1.0), and the migration was stopped half-way`);
      expect(r.stderr).toContain(`hint: run "quotelake migrate --output ${out}" (or any run on it), which finishes it, first`);
    }
    expect(allFiles(out)).toEqual(before);
    // Its layout file damaged too: migrate would stop on it, so it goes first (exit 1).
    writeFileSync(join(out, '_quotelake/layout.json'), '{"version": 2');
    for (const args of [['compact'], ['vacuum'], ['repair', '--yes']]) {
      const r = await runCli([...args, '--output', out]);
      expect(r.code, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(1);
      expect(r.stderr).toContain('is not valid JSON');
      expect(r.stderr).toContain(`, and a migration from layout 1 is under way\n  hint: remove ${join(out, '_quotelake/layout.json')} and run "quotelake migrate --output ${out}"`);
    }
  }, 60_000);

  it('a newer layout: exit 1 (QL_FORMAT_VERSION, upgrade), the lake untouched', async () => {
    const out = await copyOfFixture();
    await ensureLayout(out, { now: NOW });
    writeFileSync(join(out, '_quotelake/layout.json'), JSON.stringify({ version: 3, quotelakeVersion: '9.0.0', updatedAt: '2027-01-01T00:00:00.000Z' }));
    const before = allFiles(out);
    for (const args of COMMANDS) {
      const r = await runCli([...args, '--output', out]);
      expect(r.code, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(1);
      expect(r.stderr).toContain('lake layout version 3 is newer than this quotelake reads (newest 2)');
      expect(r.stderr).toContain('upgrade quotelake');
    }
    const json = await runCli(['repair', '--dry-run', '--json', '--output', out]);
    expect(JSON.parse(json.stdout)).toMatchObject({ exitCode: 1, error: { code: 'QL_FORMAT_VERSION' } });
    expect(allFiles(out)).toEqual(before);
  }, 60_000);

  it('a damaged layout file stops none of them (repair writes it again)', async () => {
    const out = await copyOfFixture();
    await ensureLayout(out, { now: NOW });
    writeFileSync(join(out, '_quotelake/layout.json'), '{"version": 2, "quotelakeVe');
    for (const args of [['compact', '--dry-run'], ['vacuum', '--dry-run'], ['repair', '--dry-run']]) {
      const r = await runCli([...args, '--output', out]);
      expect(r.code, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(0);
    }
    const compact = await runCli(['compact', '--dry-run', '--output', out]);
    expect(compact.stdout).toContain('kline.parquet: 4 → 4 files, 2,928 rows');
  }, 60_000);
});
