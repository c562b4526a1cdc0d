/**
 * `repair` over a lake where a run was SIGKILLed mid-commit (its files and journal written, its
 * manifest or Delta version not), through the built CLI at a frozen instant: `--dry-run` names the
 * pending commit and says repair would finish it, changing nothing; `--yes` finishes it, also when
 * it was the lake's first commit (no manifest yet), and saves the killed run's checkpoints as the
 * commit holds them, so the pipeline's next run asks only what a rerun asks. Into a folder (killed
 * by test/fixtures/kill-at-rename.mjs as it renames the manifest into place) and into s3rver (killed
 * by a gate as it sends the Delta version's PUT, its lease then made expired).
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useS3KillGate } from '../helpers/s3-kill-gate.js';
import { ROOT, runCli, startCli, tempDir, type CliResult } from './helpers/cli.js';

const NOW = '2026-03-04T15:00:00Z';
const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };
const PRELOAD = join(ROOT, 'test/fixtures/kill-at-rename.mjs');
const RUN = ['run', join(ROOT, 'pipelines/kline-backfill.yaml'), '--since', '3d', '--clock', NOW, '--json'];
const BOTH = ['--codes', 'BTCUSDT,ETHUSDT'];

interface RepairDoc {
  dryRun: boolean;
  pendingCommits: { dataset: string; format: string; run: string; files: number; outcome: string; checkpointsSaved: boolean }[];
}
const requestsOf = (r: CliResult): number => (JSON.parse(r.stdout) as { runs: { requestsTotal: number }[] }).runs[0]!.requestsTotal;
const pendingOf = async (output: string, s3: readonly string[]): Promise<{ run: string }[]> =>
  (JSON.parse((await runCli(['inspect', output, ...s3, '--json'], { env: CREDENTIALS })).stdout) as { pendingCommits: { run: string }[] }).pendingCommits;

const killGate = useS3KillGate();
const server = killGate.server;

/** What a rerun of an uninterrupted lake of both codes asks. */
let rerunRequests: number;
beforeAll(async () => {
  const output = tempDir('ql-repair-pending-clean-');
  expect((await runCli([...RUN, ...BOTH, '--output', output])).code).toBe(0);
  rerunRequests = requestsOf(await runCli([...RUN, ...BOTH, '--output', output]));
}, 120_000);

describe.each([
  { store: 'folder', earlier: false },
  { store: 'folder', earlier: true },
  { store: 's3', earlier: false },
] as const)('repair of a lake with a killed run\'s pending commit ($store, an earlier commit: $earlier)', ({ store, earlier }) => {
  it('--dry-run says it would finish it and changes nothing; --yes finishes it and saves that run\'s checkpoints', async () => {
    const prefix = `repair-pending-${String(earlier)}`;
    const output = store === 'folder' ? tempDir('ql-repair-pending-') : `s3://${server().bucket}/${prefix}`;
    const s3 = store === 's3' ? ['--s3-endpoint', killGate.endpoint()] : [];
    if (earlier) expect((await runCli([...RUN, '--codes', 'BTCUSDT', '--output', output])).code).toBe(0);
    if (store === 'folder') {
      const killed = await runCli([...RUN, ...BOTH, '--output', output], { env: { NODE_OPTIONS: `--import ${PRELOAD}`, QL_KILL_AT: '_quotelake/manifests/kline\\.parquet\\.json' } });
      expect(killed.signal).toBe('SIGKILL');
    } else {
      const run = startCli([...RUN, ...BOTH, '--output', output, ...s3], { env: CREDENTIALS });
      killGate.arm(new RegExp(`/${prefix}/kline/_delta_log/\\d{20}\\.json`), () => run.child.kill('SIGKILL'));
      expect((await run.result).signal).toBe('SIGKILL');
      await killGate.expireLease(prefix);
    }
    const [pending] = await pendingOf(output, s3);
    expect(pending).toBeDefined();

    const dry = await runCli(['repair', '--output', output, ...s3, '--dry-run'], { env: CREDENTIALS });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(new RegExp(`^kline\\.parquet: a commit of \\d+ files that run ${pending!.run} decided and did not finish \\(killed\\); would be finished first, as the next run would`, 'm'));
    expect(dry.stdout).not.toContain('nothing to repair');
    const dryDoc = JSON.parse((await runCli(['repair', '--output', output, ...s3, '--dry-run', '--json'], { env: CREDENTIALS })).stdout) as RepairDoc;
    expect(dryDoc.pendingCommits).toEqual([expect.objectContaining({ dataset: 'kline', format: 'parquet', run: pending!.run, outcome: 'would-finish', checkpointsSaved: false })]);
    expect(await pendingOf(output, s3)).toHaveLength(1);

    const fixed = await runCli(['repair', '--output', output, ...s3, '--yes', '--json'], { env: CREDENTIALS });
    expect(fixed.code, fixed.stderr).toBe(0);
    expect((JSON.parse(fixed.stdout) as RepairDoc).pendingCommits).toEqual([expect.objectContaining({ run: pending!.run, outcome: 'finished', checkpointsSaved: true })]);
    expect(await pendingOf(output, s3)).toEqual([]);

    // The killed run's rows are held and its checkpoints say so: the next run asks only what a rerun asks.
    const next = await runCli([...RUN, ...BOTH, '--output', output, ...s3], { env: CREDENTIALS });
    expect(next.code, next.stderr).toBe(0);
    expect(requestsOf(next)).toBe(rerunRequests);
  }, 120_000);
});
