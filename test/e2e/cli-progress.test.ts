/**
 * Progress renders as bars on a terminal and as plain periodic lines in a pipe. The terminal is a
 * real pseudo-terminal from util-linux `script` (node-pty is not a dependency).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { stripColor } from '../../src/cli/colors.js';
import { VirtualScreen } from '../cli/helpers/virtual-screen.js';
import { cleanEnv, MAIN, ROOT, runCli, tempDir } from './helpers/cli.js';

const ARGS = ['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '2026-11-10T00:00:00Z', '--until', '2026-11-12T00:00:00Z'];
const ESC = '\u001b[';
const SGR = /\u001b\[[0-9;]*m/;

describe('progress', () => {
  it('draws bars on a terminal (stderr is a TTY): streams done, the total equal to the summary, the last frame once, in colour', async () => {
    const output = tempDir();
    const cmd = `${process.execPath} ${MAIN} ${ARGS.join(' ')} --output ${output}`;
    const { stdout } = await promisify(execFile)('script', ['-qfec', cmd, '/dev/null'], { cwd: ROOT, env: cleanEnv({ COLUMNS: '100' }) });
    expect(stdout).toContain(ESC);
    expect(stdout).toMatch(SGR);
    const text = stripColor(stdout);
    expect(text).toMatch(/requests \[[=-]+\] \d+\/\d+/);
    // Every frame, the first included, measures the requests by the plan (`0/7`, never a bare `0`).
    const totals = [...text.matchAll(/ requests \[[=-]+\] ([^|]*?) \|/g)].map((m) => m[1]);
    expect(totals.length).toBeGreaterThan(0);
    for (const t of totals) expect(t).toMatch(/^\d+\/\d+$/);
    // What the terminal shows at the end: the last frame, once, then the summary.
    const screen = new VirtualScreen(100);
    screen.write(stdout);
    const lines = screen.lines();
    const first = lines.findIndex((l) => l.startsWith(' requests ['));
    expect(lines.slice(first, first + 4)).toEqual([
      expect.stringMatching(/^ requests \[=+\] 7\/7 \| [\d.]+\/s \| done \| quota 7\/1,728,000$/),
      // One line per stream (kline/BTCUSDT/1h and kline/BTCUSDT/1m), each with its own requests and rows.
      ' BTCUSDT 1h [============] 1/1 | 49 rows | done',
      ' BTCUSDT 1m [============] 6/6 | 2,881 rows | done',
      ' kline rows: 2,930 received | 2,930 written | 0 rejected',
    ]);
    expect(lines.filter((l) => l.startsWith(' requests ['))).toHaveLength(1);
    expect(lines.find((l) => l.startsWith('  requests '))).toMatch(/^  requests\s+7$/);
    expect(lines.find((l) => l.startsWith('  status '))).toMatch(/done \(exit 0\)/);
  }, 60_000);

  it('no colour on a terminal with NO_COLOR or --no-color', async () => {
    const cmd = (extra: string) => `${process.execPath} ${MAIN} ${ARGS.join(' ')} --output ${tempDir()}${extra}`;
    const [noColorEnv, noColorFlag] = await Promise.all([
      promisify(execFile)('script', ['-qfec', cmd(''), '/dev/null'], { cwd: ROOT, env: cleanEnv({ COLUMNS: '100', NO_COLOR: '1' }) }),
      promisify(execFile)('script', ['-qfec', cmd(' --no-color'), '/dev/null'], { cwd: ROOT, env: cleanEnv({ COLUMNS: '100' }) }),
    ]);
    for (const r of [noColorEnv, noColorFlag]) {
      // Still bars (cursor movements), never a colour.
      expect(r.stdout).toMatch(/requests \[=+\] 7\/7/);
      expect(r.stdout).not.toMatch(SGR);
    }
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
