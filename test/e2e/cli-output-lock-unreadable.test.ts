/**
 * A lock file that names no run (empty, or not a quotelake lock record: written by hand or by
 * another tool) through the built CLI: the run is refused (QL_OUTPUT_LOCKED, exit 1), the message
 * says what the file is and what to do, rather than "run ? of pipeline ? (pid ? on ?)", and the
 * file and the output are left as they were.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

const RUN = ['run', 'kline-backfill', '--codes', 'BTCUSDT', '--since', '1d', '--clock', '2026-11-20T00:00:00Z', '-q'];

describe.concurrent('an output lock that names no run', () => {
  it.each([['empty', ''], ['not JSON', 'garbage\n'], ['JSON of something else', '{"owner":"backup-job"}']])('%s: refused with what it is and what to do', async (_what, content) => {
    const out = tempDir();
    const lock = join(out, '.quotelake.lock');
    writeFileSync(lock, content);
    const r = await runCli([...RUN, '--output', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `quotelake: ${out} is locked by ${lock}, which names no run (empty, or not a quotelake lock record), so no holder can be checked and it is never taken over: if no quotelake command is writing to this output, delete it\n  hint: quotelake writes its lock whole, naming its run: check what else writes to this output (a copy, a sync, a hand edit), then delete the file\n`,
    );
    expect(r.stderr).not.toContain('?');
    expect(readFileSync(lock, 'utf8')).toBe(content);
    expect(readdirSync(out)).toEqual(['.quotelake.lock']);
  });
});
