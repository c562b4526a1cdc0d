/**
 * `state reset --stream $GLOB --yes` with the variable unset reaches quotelake as `--stream` with
 * no value: it must be refused (exit 2), never read as "no --stream", which forgets every stream.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

const streamsOf = (file: string): string[] => Object.keys((JSON.parse(readFileSync(file, 'utf8')) as { streams: object }).streams);

describe('state --stream without a glob', () => {
  it('is a usage error for reset and show; no checkpoint is forgotten', async () => {
    const cwd = tempDir('ql-stream-flag-');
    const file = join(cwd, 'two.yaml');
    writeFileSync(
      file,
      ['name: two', 'source:', '  type: kline-history', '  codes: [BTCUSDT, ETHUSDT]', '  intervals: [1h]', '  since: 2026-11-11T00:00:00Z', '  until: 2026-11-11T03:00:00Z', 'transforms:', '  - type: parse-decimals', 'sink:', '  type: parquet', ''].join('\n'),
    );
    const out = join(cwd, 'out');
    const run = await runCli(['run', file, '--output', out, '--clock', '2026-11-12T15:00:00Z', '--quiet'], { cwd });
    expect(run.code, run.stderr).toBe(0);
    const checkpoints = join(out, '.state', 'checkpoints', 'two.json');
    const before = readFileSync(checkpoints, 'utf8');
    expect(streamsOf(checkpoints)).toEqual(['kline/BTCUSDT/1h', 'kline/ETHUSDT/1h']);

    const [missing, empty, show, json] = await Promise.all([
      runCli(['state', 'reset', 'two', '--output', out, '--stream', '--yes'], { cwd }),
      runCli(['state', 'reset', 'two', '--output', out, '--stream', '', '--yes'], { cwd }),
      runCli(['state', 'show', 'two', '--output', out, '--stream'], { cwd }),
      runCli(['state', 'reset', 'two', '--output', out, '--stream', '--yes', '--json'], { cwd }),
    ]);
    expect([missing.code, empty.code, show.code, json.code]).toEqual([2, 2, 2, 2]);
    expect(missing.stderr.split('\n')[0]).toBe('quotelake: --stream needs a glob: given without one it would select every stream');
    expect(empty.stderr.split('\n')[0]).toBe('quotelake: --stream "": an empty glob matches no stream');
    expect(show.stdout).toBe('');
    expect(JSON.parse(json.stdout)).toMatchObject({ exitCode: 2, error: { code: 'QL_USAGE' } });
    expect(readFileSync(checkpoints, 'utf8')).toBe(before);

    // A glob given as it should be still works.
    const one = await runCli(['state', 'reset', 'two', '--output', out, '--stream', 'ETH*', '--yes'], { cwd });
    expect(one.code, one.stderr).toBe(0);
    expect(streamsOf(checkpoints)).toEqual(['kline/BTCUSDT/1h']);
  }, 60_000);
});
