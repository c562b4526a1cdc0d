/**
 * A run killed without a word (SIGKILL) leaves its record `running`. The next run on the output marks
 * it `interrupted`, whatever pipeline that next run is: it holds the output (the local lock or the
 * lake's lease), so no run recorded in the output's own state is alive. Only runs of the same
 * pipeline were marked, so a one-off backfill killed on a lake that hourly jobs of another pipeline
 * kept writing stayed `running` in `inspect` for good, and its scratch folder stayed in the temp
 * folder. The built CLI, the embedded emulator at a frozen instant, s3rver on loopback.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { scratchFolderName } from '../../src/lake/commit/local-scratch.js';
import { S3Storage } from '../../src/lake/storage/s3-storage.js';
import { readRunManifests } from '../../src/runtime/run-manifest.js';
import { stateInLake } from '../../src/runtime/state-location.js';
import { useS3Server } from '../helpers/s3-server.js';
import { runCli, tempDir } from './helpers/cli.js';

const NOW = '2026-03-04T15:00:00Z';
const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };
const KILLED = {
  version: 1,
  runId: '20260304T140000Z-killed',
  pipeline: 'kline-backfill',
  startedAt: '2026-03-04T14:00:00.000Z',
  status: 'running',
  requests: { '/quote-b-api/kline': 3 },
  rows: { kline: { received: 1500, written: 0, merged: 0, rejected: 0 } },
  commits: 0,
  filesCommitted: [],
  rejected: 0,
};
const RUN_ARGS = ['run', 'kline-update', '--codes', 'BTCUSDT', '--clock', NOW, '--quiet'];

function statusesOf(runs: readonly { runId: string; status: string }[]): Record<string, string> {
  return Object.fromEntries(runs.map((r) => [r.runId, r.status]));
}

describe('the next run of another pipeline on the output', () => {
  const server = useS3Server();

  it('on S3 marks a killed run of another pipeline interrupted and removes its scratch folder', async () => {
    const url = `s3://${server().bucket}/other-pipeline`;
    const lake = new S3Storage(server().client(), url);
    await server()
      .client()
      .send(new PutObjectCommand({ Bucket: server().bucket, Key: `other-pipeline/_quotelake/state/runs/${KILLED.runId}.json`, Body: JSON.stringify(KILLED) }));
    const tmp = tempDir('ql-tmp-');
    const scratch = join(tmp, scratchFolderName(lake, KILLED.runId));
    mkdirSync(join(scratch, 'kline-parquet'), { recursive: true });

    const r = await runCli([...RUN_ARGS, '--output', url, '--s3-endpoint', server().endpoint], { cwd: tempDir('ql-s3-other-'), env: { ...CREDENTIALS, TMPDIR: tmp } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('earlier run was interrupted');
    const runs = await readRunManifests(stateInLake(lake));
    expect(statusesOf(runs)[KILLED.runId]).toBe('interrupted');
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('in a folder marks it too; with a --state-dir of its own choosing (maybe shared), only its own pipeline\'s', async () => {
    const cwd = tempDir('ql-local-other-');
    const output = join(cwd, 'lake');
    const shared = join(cwd, 'shared-state');
    for (const runs of [join(output, '.state', 'runs'), join(shared, 'runs')]) {
      mkdirSync(runs, { recursive: true });
      writeFileSync(join(runs, `${KILLED.runId}.json`), JSON.stringify(KILLED));
    }
    const own = await runCli([...RUN_ARGS, '--output', output], { cwd });
    expect(own.code, own.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(output, '.state', 'runs', `${KILLED.runId}.json`), 'utf8')).status).toBe('interrupted');

    const elsewhere = await runCli([...RUN_ARGS, '--output', join(cwd, 'lake2'), '--state-dir', shared], { cwd });
    expect(elsewhere.code, elsewhere.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(shared, 'runs', `${KILLED.runId}.json`), 'utf8')).status).toBe('running');
  });
});
