/**
 * Progress renders as bars on a terminal and as plain periodic lines in a pipe. The terminal is a
 * real pseudo-terminal from util-linux `script` (node-pty is not a dependency).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cleanEnv, MAIN, ROOT, runCli, tempDir } from './helpers/cli.js';

const ARGS = ['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '2026-11-10T00:00:00Z', '--until', '2026-11-12T00:00:00Z'];
const ESC = '\u001b[';

describe('progress', () => {
  it('draws bars on a terminal (stderr is a TTY)', async () => {
    const output = tempDir();
    const cmd = `${process.execPath} ${MAIN} ${ARGS.join(' ')} --output ${output}`;
    const { stdout } = await promisify(execFile)('script', ['-qfec', cmd, '/dev/null'], { cwd: ROOT, env: cleanEnv({ COLUMNS: '100' }) });
    expect(stdout).toContain(ESC);
    expect(stdout).toMatch(/requests \[[=-]+\] \d+\/\d+/);
    expect(stdout).toMatch(/requests \[=+\] 7\/7/);
    expect(stdout).toMatch(/kline rows: [\d,]+ received/);
    // One bar per stream (kline/BTCUSDT/1m and kline/BTCUSDT/1h), each with its requests of planned and rows.
    expect(stdout).toMatch(/BTCUSDT 1m \[=+\] 6\/6 \| 2,881 rows \| [\d.]+\/s \| ETA done/);
    expect(stdout).toMatch(/BTCUSDT 1h \[=+\] 1\/1 \| 49 rows \| [\d.]+\/s \| ETA done/);
    expect(stdout).toContain('status    ');
  }, 60_000);

  it('prints plain lines in a pipe, none with --quiet, and stdout stays empty', async () => {
    const [piped, quiet] = await Promise.all([
      runCli([...ARGS, '--output', tempDir()], { env: { QUOTELAKE_PROGRESS_INTERVAL_MS: '50' } }),
      runCli([...ARGS, '--output', tempDir(), '--quiet'], { env: { QUOTELAKE_PROGRESS_INTERVAL_MS: '50' } }),
    ]);
    for (const r of [piped, quiet]) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr).not.toContain(ESC);
    }
    expect(piped.stderr).toMatch(/^quotelake: kline-backfill: \d+(\/7)? requests/m);
    expect(piped.stderr).toContain('status ');
    // No bars in a pipe: the plain line counts streams done instead.
    expect(piped.stderr).not.toMatch(/BTCUSDT 1m \[/);
    expect(piped.stderr).toMatch(/7\/7 requests \(100%\), 2\/2 streams done/);
    expect(quiet.stderr).not.toMatch(/requests/);
    // --quiet keeps the one line that says which service is used.
    expect(quiet.stderr.trim().split('\n')).toHaveLength(1);
  }, 60_000);
});
