/**
 * One pipeline, one --state-dir, two outputs: the second output's run is refused (exit 2) and the
 * refusal names the lake the checkpoints belong to by its place, not only by its id.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

const WINDOW = ['--codes', 'BTCUSDT', '--since', '2026-11-10T00:00:00Z', '--until', '2026-11-10T06:00:00Z', '--clock', '2026-11-12T15:00:00Z'];

describe('a second output given the state folder of a first', () => {
  it('is refused with the first lake named by its path and id, whether the second is new or a lake of its own', async () => {
    const base = tempDir('ql-two-outputs-');
    const [first, fresh, own, state] = ['first', 'fresh', 'own', 'state'].map((d) => join(base, d)) as [string, string, string, string];
    const ok = await runCli(['run', 'kline-backfill', ...WINDOW, '--output', first, '--state-dir', state, '--quiet']);
    expect(ok.code, ok.stderr).toBe(0);
    const firstId = (JSON.parse(readFileSync(join(first, '_quotelake', 'layout.json'), 'utf8')) as { lakeId: string }).lakeId;
    expect(JSON.parse(readFileSync(join(state, 'checkpoints', 'kline-backfill.json'), 'utf8'))).toMatchObject({ lake: firstId, lakeAt: first });

    const refused = await runCli(['run', 'kline-backfill', ...WINDOW, '--output', fresh, '--state-dir', state, '--quiet']);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(`were saved for another lake (id ${firstId}, at ${first} when they were saved) than ${fresh}, which has no lake id`);

    // An output that is a lake already (its own id), given the first's state folder.
    expect((await runCli(['run', 'kline-backfill', ...WINDOW, '--output', own, '--quiet'])).code).toBe(0);
    const ownId = (JSON.parse(readFileSync(join(own, '_quotelake', 'layout.json'), 'utf8')) as { lakeId: string }).lakeId;
    const crossed = await runCli(['run', 'kline-backfill', ...WINDOW, '--output', own, '--state-dir', state, '--quiet']);
    expect(crossed.code, crossed.stderr).toBe(2);
    expect(crossed.stderr).toContain(`were saved for another lake (id ${firstId}, at ${first} when they were saved) than ${own} (id ${ownId}): this state folder serves another output`);
  }, 60_000);
});
