/**
 * `quotelake state show|reset` and `quota` on an S3 output (s3rver on loopback, endpoint and
 * credentials through the AWS environment variables), through the built CLI. The state is seeded
 * in the lake as a run on another host would have left it: the CLI finds it under
 * `_quotelake/state/` without any local state folder, and the quota files go to the XDG folder.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { S3Storage } from '../../src/lake/storage/s3-storage.js';
import { CheckpointStore } from '../../src/runtime/checkpoint-store.js';
import { LEASE_KEY } from '../../src/runtime/lake-lease.js';
import { writeRunManifest } from '../../src/runtime/run-manifest.js';
import { stateInLake } from '../../src/runtime/state-location.js';
import { closedPort } from '../helpers/closed-port.js';
import { useS3Server } from '../helpers/s3-server.js';
import { runCli, tempDir } from './helpers/cli.js';

const server = useS3Server();
const NOW = new Date('2026-11-12T15:00:00Z');
const sec = (iso: string) => Date.parse(iso) / 1000;
const position = (watermark: string) => ({ watermark: sec(watermark), low: sec('2026-11-10T00:00:00Z'), walk: null });

function awsEnv(home: string): Record<string, string> {
  return {
    AWS_ENDPOINT_URL: server().endpoint,
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    AWS_REGION: 'us-east-1',
    XDG_STATE_HOME: join(home, 'xdg'),
    HOME: home,
  };
}

async function seed(url: string): Promise<S3Storage> {
  const lake = new S3Storage(server().client(), url);
  const state = stateInLake(lake);
  const streams = new Map(
    ['kline/BTCUSDT/1m', 'kline/ETHUSDT/1m', 'kline/EURUSD/1m'].map((stream) => [stream, { stream, position: position('2026-11-10T23:59:00Z') }] as const),
  );
  await new CheckpointStore(state, 'kline-backfill').save(streams, { now: NOW, runId: 'run-elsewhere' });
  await writeRunManifest(state, { version: 1, runId: 'run-elsewhere', pipeline: 'kline-backfill', startedAt: NOW.toISOString(), finishedAt: NOW.toISOString(), status: 'succeeded', requests: { '/kline': 12 }, rows: {}, commits: 2, filesCommitted: [], rejected: 0 });
  return lake;
}

describe('state commands on an S3 output', () => {
  it('state show reads the checkpoints another host saved in the lake', async () => {
    const url = `s3://${server().bucket}/cli-state-show`;
    await seed(url);
    const home = tempDir();
    const r = await runCli(['state', 'show', '--output', url, '--json'], { cwd: home, env: awsEnv(home) });
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout) as { stateDir: string; pipelines: { pipeline: string; checkpoints: { path: string; runId: string }; lastRun: { runId: string } | null; streams: { stream: string; watermark: { utc: string } | null; lake: string }[] }[] };
    expect(json.stateDir).toBe(`${url}/_quotelake/state`);
    expect(json.pipelines.map((p) => [p.pipeline, p.checkpoints.path, p.checkpoints.runId, p.lastRun?.runId])).toEqual([
      ['kline-backfill', `${url}/_quotelake/state/checkpoints/kline-backfill.json`, 'run-elsewhere', 'run-elsewhere'],
    ]);
    expect(json.pipelines[0]!.streams.map((s) => [s.stream, s.watermark?.utc])).toEqual([
      ['kline/BTCUSDT/1m', '2026-11-10T23:59:00Z'],
      ['kline/ETHUSDT/1m', '2026-11-10T23:59:00Z'],
      ['kline/EURUSD/1m', '2026-11-10T23:59:00Z'],
    ]);
    // The lake folder is a URL with its two slashes, not a path.join of one (`s3:/bucket/...`).
    expect(json.pipelines[0]!.streams[0]!.lake).toBe(`${url}/kline/interval=1m`);
    const text = await runCli(['state', 'show', '--output', url, '--s3-endpoint', server().endpoint], { cwd: home, env: awsEnv(home) });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`-> ${url}/kline/interval=1m (code=BTCUSDT)`);
    // Nothing was written on this machine.
    expect(existsSync(join(home, 'output'))).toBe(false);
  });

  it('state reset forgets streams in the lake under the lease, and releases it', async () => {
    const url = `s3://${server().bucket}/cli-state-reset`;
    const lake = await seed(url);
    const home = tempDir();
    const r = await runCli(['state', 'reset', 'kline-backfill', '--stream', 'kline/E*', '--yes', '--output', url, '--json'], { cwd: home, env: awsEnv(home) });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ reset: [{ pipeline: 'kline-backfill', stateDir: `${url}/_quotelake/state`, streams: ['kline/ETHUSDT/1m', 'kline/EURUSD/1m'] }] });
    expect([...(await new CheckpointStore(stateInLake(lake), 'kline-backfill').load()).keys()]).toEqual(['kline/BTCUSDT/1m']);
    expect(await lake.exists(LEASE_KEY)).toBe(false);
  });

  it('a store that cannot be read is an error, never "nothing to reset" with exit 0', async () => {
    const home = tempDir();
    const env = { ...awsEnv(home), AWS_ENDPOINT_URL: `http://127.0.0.1:${await closedPort()}` };
    const url = `s3://${server().bucket}/cli-state-unreachable`;
    const [show, reset] = await Promise.all([
      runCli(['state', 'show', '--output', url], { cwd: home, env }),
      runCli(['state', 'reset', '--stream', 'kline/BTCUSDT/1m', '--yes', '--output', url], { cwd: home, env }),
    ]);
    for (const r of [show, reset]) {
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/ListObjectsV2 s3:\/\/lake-test\/cli-state-unreachable\/_quotelake\/state\/checkpoints\/: the store at http:\/\/127\.0\.0\.1:\d+ could not be reached \(ECONNREFUSED\)/);
      expect(r.stdout + r.stderr).not.toMatch(/nothing to reset|no checkpoints/);
    }
  });

  it('quota of an S3 output reads the XDG state folder, never the lake', async () => {
    const url = `s3://${server().bucket}/cli-quota`;
    const home = tempDir();
    const r = await runCli(['quota', '--output', url, '--json'], { cwd: home, env: awsEnv(home) });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ stateDir: join(home, 'xdg', 'quotelake'), tokens: [] });
  });
});
