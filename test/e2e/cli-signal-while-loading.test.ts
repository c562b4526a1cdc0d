/**
 * A SIGTERM or SIGINT that comes while the command line is still loading, before a run's own
 * handlers: a clean stop with one line and exit 130, as for any interrupted run, with nothing
 * written; not a silent death by the signal (a shell's 143).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startCli, tempDir } from './helpers/cli.js';

const LISTENING = fileURLToPath(new URL('../helpers/say-when-signal-handled.mjs', import.meta.url));
const STOPPED_WHILE_STARTING = 'stopped while starting, before anything was sent or written; run the command again';

/** The signal as soon as the process listens for one: the first listener is the early stop's, while the rest still loads. */
async function stopWhileLoading(sig: NodeJS.Signals, extra: string[] = [], before: string[] = []) {
  const output = join(tempDir(), 'out');
  const proc = startCli([...before, 'run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '1d', '--clock', '2026-11-20T00:00:00Z', '--output', output, ...extra], {
    env: { NODE_OPTIONS: `--import=${LISTENING}` },
  });
  await proc.waitForStderr(/^listening for SIGTERM\n/);
  proc.child.kill(sig);
  return { output, result: await proc.result };
}

describe('a signal while the command line loads', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s: exit 130 with one line, nothing written', async (sig) => {
    const { output, result } = await stopWhileLoading(sig);
    expect(result.signal, result.stderr).toBeNull();
    expect(result.code, result.stderr).toBe(130);
    expect(result.stderr).toBe(`listening for SIGTERM\nquotelake: ${sig}: ${STOPPED_WHILE_STARTING}\n`);
    expect(existsSync(output)).toBe(false);
  }, 60_000);

  it('under --log-format json, the line is a JSON signal notice', async () => {
    const { result } = await stopWhileLoading('SIGTERM', ['--log-format', 'json']);
    expect(result.code, result.stderr).toBe(130);
    const notice = result.stderr
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { level: string; event: string; msg: string })[0]!;
    expect(notice.level).toBe('warn');
    expect(notice.event).toBe('signal');
    expect(notice.msg).toBe(`SIGTERM: ${STOPPED_WHILE_STARTING}`);
  }, 60_000);

  // Options before the command, with their values, as the parser reads them: before, the word
  // after `--log-format` was taken for the command and the stop was the silent death by the signal.
  it.each([
    ['SIGINT', ['--log-format', 'json']],
    ['SIGTERM', ['--log-format', 'json', '--no-color']],
  ] as const)('%s after %j before the command: the same JSON notice and exit 130', async (sig, before) => {
    const { output, result } = await stopWhileLoading(sig, [], [...before]);
    expect(result.signal, result.stderr).toBeNull();
    expect(result.code, result.stderr).toBe(130);
    const [said, line, ...rest] = result.stderr.split('\n');
    expect(said).toBe('listening for SIGTERM');
    expect(rest).toEqual(['']);
    expect(JSON.parse(line!)).toMatchObject({ level: 'warn', event: 'signal', msg: `${sig}: ${STOPPED_WHILE_STARTING}` });
    expect(existsSync(output)).toBe(false);
  }, 60_000);

  it('SIGTERM after --log-format=pretty --clock T before the command: the text line and exit 130', async () => {
    const { result } = await stopWhileLoading('SIGTERM', [], ['--log-format=pretty', '--clock', '2026-11-20T00:00:00Z']);
    expect(result.code, result.stderr).toBe(130);
    expect(result.stderr).toBe(`listening for SIGTERM\nquotelake: SIGTERM: ${STOPPED_WHILE_STARTING}\n`);
  }, 60_000);
});
