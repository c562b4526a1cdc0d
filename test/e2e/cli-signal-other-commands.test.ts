/**
 * SIGTERM or SIGINT to a command that has no stop of its own (`inspect`, `repair`, `state`, …) or
 * before its own takes over (`vacuum` while it opens the lake): one line saying what the stop left,
 * and the 130 of an interrupted command, for either signal. Before, SIGTERM ended them without a
 * word (a shell's 143), vacuum's README promise included. The built CLI, mid-command: its S3 store
 * is a loopback socket that takes connections and never answers.
 */
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, type CliResult } from './helpers/cli.js';

const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'k', AWS_SECRET_ACCESS_KEY: 's' };

/** What a shell reports: the exit code, or 128 + the number of the signal that ended the process. */
function exitStatus(r: CliResult): number | null {
  if (r.code !== null) return r.code;
  return r.signal === 'SIGINT' ? 130 : r.signal === 'SIGTERM' ? 143 : null;
}

describe('a signal to a command without a stop of its own', () => {
  let silent: Server;
  let endpoint = '';
  const sockets = new Set<Socket>();
  let connected: () => void = () => undefined;
  beforeAll(async () => {
    silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('data', () => undefined);
      connected();
    });
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    endpoint = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    for (const s of sockets) s.destroy();
    silent.close();
  });

  /** Starts the command, waits until it is waiting on the store, then sends `sig`. */
  async function stopMidway(args: string[], sig: NodeJS.Signals): Promise<CliResult> {
    const waiting = new Promise<void>((resolve) => (connected = resolve));
    const proc = startCli([...args, '--s3-endpoint', endpoint], { env: CREDENTIALS });
    await Promise.race([waiting, proc.result.then((r) => Promise.reject(new Error(`exited before it asked the store: ${r.stderr}`)))]);
    proc.child.kill(sig);
    return proc.result;
  }

  it.each(['SIGTERM', 'SIGINT'] as const)('inspect, %s: exit 130 and "it only reads"', async (sig) => {
    const r = await stopMidway(['inspect', 's3://lake-test/quotes'], sig);
    expect(exitStatus(r), r.stderr).toBe(130);
    expect(r.stderr).toBe(`quotelake: ${sig}: inspect stopped; it only reads, so nothing was changed\n`);
  }, 60_000);

  it('repair --yes, SIGTERM: exit 130 and "run it again"', async () => {
    const r = await stopMidway(['repair', '--output', 's3://lake-test/quotes', '--yes'], 'SIGTERM');
    expect(exitStatus(r), r.stderr).toBe(130);
    expect(r.stderr).toBe('quotelake: SIGTERM: repair stopped before it finished; run it again (a lock it held on the output is taken over by the next command, as after any stop)\n');
  }, 60_000);

  it('repair, SIGTERM under --log-format json: a JSON signal notice and exit 130', async () => {
    const r = await stopMidway(['repair', '--output', 's3://lake-test/quotes', '--yes', '--log-format', 'json'], 'SIGTERM');
    expect(exitStatus(r), r.stderr).toBe(130);
    const [line, ...rest] = r.stderr.split('\n');
    expect(rest).toEqual(['']);
    expect(JSON.parse(line!)).toMatchObject({ level: 'warn', event: 'signal', msg: expect.stringMatching(/^SIGTERM: repair stopped before it finished; run it again/) });
  }, 60_000);

  it('state reset and state show, SIGINT: named with their subcommand', async () => {
    const reset = await stopMidway(['state', 'reset', '--output', 's3://lake-test/quotes', '--yes'], 'SIGINT');
    expect(exitStatus(reset), reset.stderr).toBe(130);
    expect(reset.stderr).toMatch(/^quotelake: SIGINT: state reset stopped before it finished; run it again/);
    const show = await stopMidway(['state', 'show', '--output', 's3://lake-test/quotes'], 'SIGINT');
    expect(exitStatus(show), show.stderr).toBe(130);
    expect(show.stderr).toBe('quotelake: SIGINT: state show stopped; it only reads, so nothing was changed\n');
  }, 60_000);

  it('a dry run, SIGTERM: "it only reads"', async () => {
    const r = await stopMidway(['vacuum', '--output', 's3://lake-test/quotes', '--dry-run'], 'SIGTERM');
    expect(exitStatus(r), r.stderr).toBe(130);
    expect(r.stderr).toBe('quotelake: SIGTERM: vacuum stopped; it only reads, so nothing was changed\n');
  }, 60_000);

  const queueOnly = 'it changes only the queue in Redis: what it removed so far is gone, the rest is still there';
  it.each([
    ['queue drop', ['queue', 'drop', '--all', '--yes'], queueOnly],
    ['queue unschedule', ['queue', 'unschedule', 'nightly'], queueOnly],
    ['enqueue', ['enqueue', 'kline-backfill'], 'it changes only the queue in Redis, and what it queued so far is not queued twice'],
  ])('%s, SIGTERM while Redis does not answer: no word of an output lock it never holds', async (name, args, words) => {
    // The same silent socket as a Redis: it takes the connection and never answers a command.
    const waiting = new Promise<void>((resolve) => (connected = resolve));
    const proc = startCli([...args, '--coordinator', `redis://${endpoint.slice('http://'.length)}`]);
    await Promise.race([waiting, proc.result.then((r) => Promise.reject(new Error(`exited before it asked Redis: ${r.stderr}`)))]);
    proc.child.kill('SIGTERM');
    const r = await proc.result;
    expect(exitStatus(r), r.stderr).toBe(130);
    expect(r.stderr).toBe(`quotelake: SIGTERM: ${name} stopped before it finished; run it again (${words})\n`);
  }, 60_000);

  it('vacuum, SIGTERM while it opens the lake (before its own stop): exit 130 with a line', async () => {
    const r = await stopMidway(['vacuum', '--output', 's3://lake-test/quotes'], 'SIGTERM');
    expect(exitStatus(r), r.stderr).toBe(130);
    expect(r.stderr).toMatch(/^quotelake: SIGTERM: vacuum stopped before it finished; run it again/);
  }, 60_000);
});
