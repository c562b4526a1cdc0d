/**
 * `quotelake inspect` given a folder inside a lake (a dataset's, a partition's, the state's) is
 * exit 2 naming the lake's folder: it read as a lake with no datasets and no runs, exit 0.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

const NOW = '2026-11-20T00:00:00Z';

describe('inspect a folder inside a lake', () => {
  let dir: string;
  beforeAll(async () => {
    dir = tempDir('ql-inspect-inside-');
    const lines = ['name: tiny', 'source:', '  type: kline-history', '  codes: [BTCUSDT]', '  intervals: [1d]', '  since: 3d', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet', ''];
    writeFileSync(join(dir, 'tiny.yaml'), lines.join('\n'));
    const r = await runCli(['run', 'tiny.yaml', '--clock', NOW, '--quiet'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
  }, 60_000);

  it('a dataset, a partition or the state folder: exit 2 with the lake to inspect', async () => {
    const given = ['output/kline', 'output/kline/interval=1d', 'output/.state', join(dir, 'output', 'kline')];
    const results = await Promise.all(given.map((f) => runCli(['inspect', f], { cwd: dir })));
    for (const [i, r] of results.entries()) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`quotelake: ${given[i]} is a folder inside the lake output, not an output folder\n  hint: give the lake's folder: "quotelake inspect output"`);
    }
  });

  it('the lake itself still inspects', async () => {
    const r = await runCli(['inspect', 'output'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/kline \(parquet\): \d+ rows in \d+ files?/);
  });
});
