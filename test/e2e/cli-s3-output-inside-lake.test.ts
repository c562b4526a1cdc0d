/**
 * An s3:// output that is a prefix inside a lake (a dataset's, as Delta tools take a table's path,
 * or `_quotelake/`) is refused as the same folder of a local lake is: `inspect`, `repair`, `compact`,
 * `vacuum` and `plan` exit 2 naming the lake (they said "nothing to repair" with exit 0, every night), and
 * a run writes nothing there (it wrote a second lake among the first one's data objects, which that
 * lake's recovery sweeps as objects no manifest lists). The built CLI, s3rver on loopback, the
 * embedded emulator at a frozen instant.
 */
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { useS3Server } from '../helpers/s3-server.js';
import { runCli, tempDir } from './helpers/cli.js';

const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };
const WINDOW = ['--codes', 'BTCUSDT', '--since', '2026-11-10T00:00:00Z', '--clock', '2026-11-11T12:00:00Z', '--quiet'];

describe('an s3:// output inside a lake', () => {
  const server = useS3Server();

  it('is refused by inspect, repair, compact, vacuum and run (exit 2), naming the lake, and nothing is written', async () => {
    const lake = `s3://${server().bucket}/inner`;
    const cwd = tempDir('ql-s3-inside-');
    const endpoint = ['--s3-endpoint', server().endpoint];
    const first = await runCli(['run', 'kline-backfill', ...WINDOW, '--output', lake, ...endpoint], { cwd, env: CREDENTIALS });
    expect(first.code, first.stderr).toBe(0);
    const keys = async (): Promise<string[]> =>
      ((await server().client().send(new ListObjectsV2Command({ Bucket: server().bucket, Prefix: 'inner/' }))).Contents ?? []).map((o) => o.Key!).sort();
    const before = await keys();

    const table = `${lake}/kline`;
    const said = `${table} is inside the lake ${lake}, in the kline dataset's folder, not a lake's prefix\n  hint: give the lake's prefix: --output ${lake} --s3-endpoint ${server().endpoint}\n`;
    for (const args of [['inspect', table], ['repair', '--output', table, '--dry-run'], ['repair', '--output', table, '--yes'], ['compact', '--output', table], ['vacuum', '--output', table, '--dry-run']]) {
      const r = await runCli([...args, ...endpoint], { cwd, env: CREDENTIALS });
      expect(r.code, `${args.join(' ')}: ${r.stdout}`).toBe(2);
      expect(r.stderr).toBe(`quotelake: ${said}`);
    }
    const own = await runCli(['inspect', `${lake}/_quotelake`, ...endpoint], { cwd, env: CREDENTIALS });
    expect(own.code).toBe(2);
    expect(own.stderr).toContain('in its own _quotelake folder, not a lake\'s prefix');

    // The plan of that run promises nothing the run would refuse.
    const plan = await runCli(['plan', 'kline-backfill', ...WINDOW.filter((a) => a !== '--quiet'), '--output', table, ...endpoint], { cwd, env: CREDENTIALS });
    expect(plan.code, plan.stdout).toBe(2);
    expect(plan.stderr).toContain(`output ${table} is inside the lake ${lake}, in the kline dataset's folder`);
    const run = await runCli(['run', 'kline-backfill', ...WINDOW, '--output', table, ...endpoint], { cwd, env: CREDENTIALS });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`output ${table} is inside the lake ${lake}, in the kline dataset's folder: a run there would write a second lake among its objects`);
    expect(await keys()).toEqual(before);

    // The lake itself is as it was.
    const look = await runCli(['repair', '--output', lake, '--dry-run', ...endpoint], { cwd, env: CREDENTIALS });
    expect(look.code, look.stderr).toBe(0);
  });
});
