/**
 * `quotelake repair` through the built CLI: a lake with a damaged file refuses runs; repair needs
 * --yes (or --dry-run, which changes nothing), drops it, prints the `state reset` to paste, and
 * the run that follows commits again and fetches the dropped day back.
 */
import { readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

const WINDOW = ['--codes', 'BTCUSDT', '--since', '2026-11-10T00:00:00Z'];

describe('quotelake repair', () => {
  it('--dry-run names the damaged file, --yes drops it, and runs commit again', async () => {
    const output = join(tempDir('ql-repair-'), 'out');
    expect((await runCli(['run', 'kline-backfill', ...WINDOW, '--clock', '2026-11-11T12:00:00Z', '--output', output, '--quiet'])).code).toBe(0);
    const folder = join(output, 'kline/interval=1m/year=2026/date=2026-11-11');
    const [name] = readdirSync(folder);
    truncateSync(join(folder, name!), 1000);
    const later = ['run', 'kline-backfill', ...WINDOW, '--clock', '2026-11-11T12:30:00Z', '--output', output, '--quiet'];
    const blocked = await runCli(later);
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toContain(`${name} in ${output} cannot be read, the file is damaged`);

    const refused = await runCli(['repair', '--output', output]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('hint: add --dry-run to see which, then --yes to drop them');
    const look = await runCli(['repair', '--output', output, '--dry-run']);
    expect(look.code, look.stderr).toBe(0);
    expect(look.stdout).toContain(`kline.parquet: 1 of 4 live files cannot be read; would drop:\n  kline/interval=1m/year=2026/date=2026-11-11/${name}: damaged (1000 of `);
    // A command to paste as it is: every pipeline holding the stream under this output.
    const reset = `quotelake state reset --output ${output} --stream kline/BTCUSDT/1m --yes`;
    expect(look.stdout).toContain(`to fetch their rows again: ${reset} (every pipeline holding them;`);
    expect((await runCli(later)).code).toBe(1);
    // The same for a script: one JSON document, the command to run included.
    const asJson = await runCli(['repair', '--output', output, '--dry-run', '--json']);
    expect(asJson.code, asJson.stderr).toBe(0);
    const doc = JSON.parse(asJson.stdout) as { command: string; output: string; dryRun: boolean; datasets: Record<string, unknown>[] };
    expect(doc).toMatchObject({ command: 'repair', output, dryRun: true });
    expect(doc.datasets).toEqual([
      {
        dataset: 'kline',
        format: 'parquet',
        delta: false,
        files: 4,
        dropped: [{ key: `kline/interval=1m/year=2026/date=2026-11-11/${name}`, problem: expect.stringMatching(/^damaged \(1000 of /), rows: 12 * 60 + 1, series: ['BTCUSDT'] }],
        logMismatches: [],
        logLost: false,
        streams: ['kline/BTCUSDT/1m'],
        reset,
      },
    ]);

    const fixed = await runCli(['repair', '--output', output, '--yes']);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stdout).toContain('live files cannot be read; dropped:');
    expect((await runCli(['repair', '--output', output, '--dry-run'])).stdout).toBe('kline.parquet: all 3 live files read\n');
    const resetRun = await runCli(reset.split(' ').slice(1));
    expect(resetRun.code, resetRun.stderr).toBe(0);
    expect(resetRun.stderr).toContain('quotelake: kline-backfill: reset 1 checkpoint(s); data files kept');
    const again = await runCli(later);
    expect(again.code, again.stderr).toBe(0);
    // The reset stream came back from since: its dropped day is live in the lake again.
    const manifest = JSON.parse(readFileSync(join(output, '_quotelake/manifests/kline.parquet.json'), 'utf8')) as { files: { path: string; rows: number }[] };
    expect(manifest.files.filter((f) => f.path.startsWith('interval=1m/year=2026/date=2026-11-11/')).map((f) => f.rows)).toEqual([12 * 60 + 31]);
  });

  it('a damaged layout file stops the runs with a hint; repair writes it again with its id, and they resume', async () => {
    const output = join(tempDir('ql-repair-'), 'out');
    const at = (clock: string) => ['run', 'kline-backfill', ...WINDOW, '--clock', clock, '--output', output, '--quiet', '--json'];
    expect((await runCli(at('2026-11-10T06:00:00Z'))).code).toBe(0);
    const layoutFile = join(output, '_quotelake/layout.json');
    const { lakeId } = JSON.parse(readFileSync(layoutFile, 'utf8')) as { lakeId: string };
    writeFileSync(layoutFile, '{"version":');
    const blocked = await runCli(at('2026-11-10T06:30:00Z'));
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toContain(`${layoutFile} is not valid JSON`);
    expect(blocked.stderr).toContain(`hint: the layout file records the lake's layout version and id; "quotelake repair --output ${output} --yes" writes it again`);
    const look = await runCli(['repair', '--output', output, '--dry-run']);
    expect(look.stdout).toContain(`layout: ${layoutFile} is not valid JSON (`);
    expect(look.stdout).toContain(`would be written again with lake id ${lakeId}, as the checkpoints of kline-backfill name it (they resume where they were)`);
    const fixed = await runCli(['repair', '--output', output, '--yes', '--json']);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect((JSON.parse(fixed.stdout) as { layout: unknown }).layout).toMatchObject({ lakeId, pipelines: ['kline-backfill'], written: true });
    // Resumed, not started over: the half hour since the last run, 30 bars of 1m (and no new 1h bar).
    const resumed = await runCli(at('2026-11-10T06:30:00Z'));
    expect(resumed.code, resumed.stderr).toBe(0);
    expect((JSON.parse(resumed.stdout) as { runs: { rows: { kline: { written: number } } }[] }).runs[0]!.rows.kline.written).toBe(30);
  });
});
