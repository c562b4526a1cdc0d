/**
 * A run record damaged outside quotelake (valid JSON that is no record: `null`, `[]`, `{}`; or text
 * that is not JSON), through the built CLI: run records are history, not state, so a run goes on,
 * `state show` reads the rest, and `inspect` lists the other runs and names the files it left out.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

const RUN = ['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '1d', '--clock', '2026-11-20T00:00:00Z', '--quiet'];

describe('a damaged run record', () => {
  it('stops no run, no state show, and inspect names it', async () => {
    const output = tempDir();
    expect((await runCli([...RUN, '--output', output])).code).toBe(0);
    const runs = join(output, '.state', 'runs');
    const damaged = { 'a-null.json': 'null', 'b-list.json': '[]', 'c-empty.json': '{}', 'd-text.json': '{"runId' };
    for (const [name, text] of Object.entries(damaged)) writeFileSync(join(runs, name), text);

    const again = await runCli([...RUN, '--output', output]);
    expect(again.stderr).not.toMatch(/Cannot|bug in quotelake/);
    expect(again.code).toBe(0);

    const show = await runCli(['state', 'show', '--output', output]);
    expect(show.stderr).toBe('');
    expect(show.code).toBe(0);
    expect(show.stdout).toContain('kline/BTCUSDT/1m');

    const inspect = await runCli(['inspect', output]);
    expect(inspect.stderr).toBe('');
    expect(inspect.code).toBe(0);
    expect(inspect.stdout.match(/kline-backfill {2}succeeded/g)).toHaveLength(2);
    expect(inspect.stdout).toContain('  left out: 4 run records that cannot be read (not JSON, or not a run record): runs/a-null.json, runs/b-list.json, runs/c-empty.json, runs/d-text.json');

    const json = await runCli(['inspect', output, '--json']);
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.stdout) as { runs: unknown[]; damagedRunRecords: string[] };
    expect(doc.runs).toHaveLength(2);
    expect(doc.damagedRunRecords).toEqual(Object.keys(damaged));
  }, 90_000);
});
