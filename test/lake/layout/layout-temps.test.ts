/**
 * A run killed while it wrote `_quotelake/layout.json` leaves the temp file beside it; the next run
 * (holding the output) removes it, and nothing else of `_quotelake/`. Through the built CLI too.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { removeStaleLayoutTemps } from '../../../src/lake/layout/index.js';
import { runCli, tempDir } from '../../e2e/helpers/cli.js';

vi.setConfig({ testTimeout: 60_000 });

async function lakeWithStaleTemp(): Promise<string> {
  const out = tempDir();
  await mkdir(join(out, '_quotelake/manifests'), { recursive: true });
  await writeFile(join(out, '_quotelake/layout.json'), '{"version":2,"quotelakeVersion":"0.1.0","updatedAt":"2026-11-20T00:00:00.000Z"}\n');
  await writeFile(join(out, '_quotelake/.layout.json.tmp-4966-d726a456'), '{"vers');
  // A temp file deeper down is another component's to clean (the manifests' own recovery).
  await writeFile(join(out, '_quotelake/manifests/.kline.parquet.json.tmp-1-ab'), '{');
  return out;
}

describe('stale layout temp files', () => {
  it('are removed, and only they', async () => {
    const out = await lakeWithStaleTemp();
    expect(await removeStaleLayoutTemps(out)).toBe(1);
    expect((await readdir(join(out, '_quotelake'))).sort()).toEqual(['layout.json', 'manifests']);
    expect(await readdir(join(out, '_quotelake/manifests'))).toEqual(['.kline.parquet.json.tmp-1-ab']);
    expect(await removeStaleLayoutTemps(out)).toBe(0);
  });

  it('a run on such a lake leaves none behind', async () => {
    const out = await lakeWithStaleTemp();
    const r = await runCli(['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '1d', '--output', out, '--clock', '2026-11-20T00:00:00Z', '--json', '-q', '--log-level', 'info', '--log-format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect((await readdir(join(out, '_quotelake'))).filter((n) => n.includes('.tmp-'))).toEqual([]);
    expect(r.stderr).toContain('"action":"layout-temp-removed"');
  });
});
