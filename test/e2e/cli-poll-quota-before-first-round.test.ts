/**
 * A polling run whose token has no request left today: its note says the quota was used up before
 * its first round and nothing was fetched (exit 75), not "after 0 rounds; what they fetched is kept".
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { tokenHash16 } from '../../src/api/index.js';
import { runCli, tempDir } from './helpers/cli.js';

vi.setConfig({ testTimeout: 60_000 });
const NOW = '2026-11-20T10:00:00Z';

describe('a polling run with today\'s quota already used up', () => {
  it('notes that nothing was fetched, with the reset, and exits 75', async () => {
    const out = tempDir();
    const dir = join(out, '.state', 'quota');
    mkdirSync(dir, { recursive: true });
    const full = { version: 1, tokenHash: tokenHash16('demo-professional'), day: '2026-11-20', timeZone: 'UTC', used: 1_728_000, limit: 1_728_000, updatedAt: NOW };
    writeFileSync(join(dir, `${tokenHash16('demo-professional')}.json`), `${JSON.stringify(full)}\n`);
    const r = await runCli(['run', 'snapshots', '--output', out, '--clock', NOW, '--json', '--quiet']);
    expect(r.code, r.stderr).toBe(75);
    const doc = JSON.parse(r.stdout) as { runs: { requestsTotal: number; notes: string[] }[] };
    expect(doc.runs[0]!.requestsTotal).toBe(0);
    expect(doc.runs[0]!.notes).toContain('depth-snapshot: daily request quota used up before its first round: nothing fetched, run again after 2026-11-21T00:00:00.000Z');
  });
});
