/** `quotelake migrate` through the built CLI on a copy of the 0.1.0 fixture lake. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyOfFixture } from '../lake/layout/fixture-lake.js';
import { runCli } from './helpers/cli.js';

describe('quotelake migrate', () => {
  it('--dry-run says what it would do; then migrates; then has nothing to do; a newer layout is refused with exit 1', async () => {
    const out = await copyOfFixture();
    // inspect only reads: it names a 0.1.0 lake and says what to do (exit 2).
    const inspect = await runCli(['inspect', out]);
    expect(inspect.code).toBe(2);
    expect(inspect.stderr).toContain('is a lake written by quotelake 0.1.0 (layout 1)');
    expect(inspect.stderr).toContain(`quotelake migrate --output ${out}`);

    const dry = await runCli(['migrate', '--output', out, '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ command: 'migrate', layoutBefore: 1, layout: 2, migration: { dryRun: true, filesRewritten: 10, journalsRolledForward: 1 } });

    const done = await runCli(['migrate', '--output', out]);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/^migrated the lake from layout 1 \(quotelake 0\.1\.0\) to layout 2: 10 file\(s\) rewritten without their hive-key column, 5 kept/);
    expect(JSON.parse(readFileSync(join(out, '_quotelake/layout.json'), 'utf8'))).toMatchObject({ version: 2, migratedFrom: 1 });

    const inspected = await runCli(['inspect', out, '--json']);
    expect(inspected.code, inspected.stderr).toBe(0);
    expect((JSON.parse(inspected.stdout) as { datasets: { problems: string[] }[] }).datasets.flatMap((d) => d.problems)).toEqual([]);

    const again = await runCli(['migrate', '--output', out]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe(`${out} is already at layout 2: nothing to migrate\n`);

    writeFileSync(join(out, '_quotelake/layout.json'), JSON.stringify({ version: 3, quotelakeVersion: '9.0.0', updatedAt: '2027-01-01T00:00:00.000Z' }));
    const future = await runCli(['migrate', '--output', out]);
    expect(future.code).toBe(1);
    expect(future.stderr).toContain('lake layout version 3 is newer than this quotelake reads (newest 2)');
    expect(future.stderr).toContain('upgrade quotelake');
  }, 60_000);

  it('--log-level info --log-format json: the migration is one recovery line with its counts; the default level prints none', async () => {
    const out = await copyOfFixture();
    const r = await runCli(['migrate', '--output', out, '--clock', '2026-11-20T00:00:00Z', '--log-level', 'info', '--log-format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toEqual([
      {
        level: 'info',
        time: expect.stringMatching(/^2026-11-20T00:00:\d\d\.\d{3}Z$/),
        runId: expect.stringMatching(/^20261120T000000Z-[a-z0-9]{6}$/),
        command: 'migrate',
        event: 'recovery',
        action: 'layout-migrated',
        output: out,
        from: 1,
        to: 2,
        files: 10,
        kept: 5,
        resumed: false,
        msg: expect.stringMatching(/^migrated the lake from layout 1 \(quotelake 0\.1\.0\) to layout 2: 10 file\(s\) rewritten/),
      },
    ]);
    const quiet = await runCli(['migrate', '--output', await copyOfFixture()]);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe('');
  }, 60_000);
});
