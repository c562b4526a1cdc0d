/**
 * The zstd codec through the built CLI: the same backfill written with the native codec and with
 * WebAssembly (QUOTELAKE_ZSTD) holds the same rows, read back by DuckDB; a wrong setting is exit 2
 * before any request.
 */
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { loadNativeZstd } from '../../src/lake/parquet/direct/zstd-native.js';
import { duck } from '../sinks/helpers.js';
import { runCli, tempDir } from './helpers/cli.js';

vi.setConfig({ testTimeout: 120_000 });
const NOW = '2026-11-20T00:00:00Z';
const backfill = (out: string) => ['run', 'kline-backfill', '--codes', 'BTCUSDT,EURUSD,GOLD', '--since', '3d', '--output', out, '--clock', NOW, '--json', '-q'];

describe.concurrent('QUOTELAKE_ZSTD', () => {
  it.skipIf(loadNativeZstd() === undefined)('native and WebAssembly write the same rows, every file ZSTD', async () => {
    const outs = { native: tempDir(), wasm: tempDir() };
    const [a, b] = await Promise.all([runCli(backfill(outs.native), { env: { QUOTELAKE_ZSTD: 'native' } }), runCli(backfill(outs.wasm), { env: { QUOTELAKE_ZSTD: 'wasm' } })]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    const files = (dir: string) => `read_parquet('${join(dir, 'kline/**/*.parquet')}')`;
    const [count] = await duck(`SELECT count(*)::INT AS n FROM ${files(outs.native)}`);
    expect(count!.n).toBeGreaterThan(5_000);
    const [diff] = await duck(`SELECT
      (SELECT count(*)::INT FROM (SELECT * FROM ${files(outs.native)} EXCEPT ALL SELECT * FROM ${files(outs.wasm)})) AS only_native,
      (SELECT count(*)::INT FROM (SELECT * FROM ${files(outs.wasm)} EXCEPT ALL SELECT * FROM ${files(outs.native)})) AS only_wasm`);
    expect(diff).toEqual({ only_native: 0, only_wasm: 0 });
    for (const dir of Object.values(outs)) {
      const codecs = await duck(`SELECT DISTINCT compression FROM parquet_metadata('${join(dir, 'kline/**/*.parquet')}')`);
      expect(codecs).toEqual([{ compression: 'ZSTD' }]);
    }
  });

  it('a value other than native or wasm is exit 2, naming the setting and the fix', async () => {
    const out = tempDir();
    const r = await runCli(backfill(out), { env: { QUOTELAKE_ZSTD: 'lz4' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('QUOTELAKE_ZSTD must be native or wasm, not "lz4"');
    expect(r.stderr).toContain('hint: unset QUOTELAKE_ZSTD');
    expect(JSON.parse(r.stdout)).toMatchObject({ exitCode: 2, error: { message: 'QUOTELAKE_ZSTD must be native or wasm, not "lz4"' } });
  });

  it('a wrong value still lets --help and --version print (how to fix it is in the help)', async () => {
    const help = await runCli(['run', '--help'], { env: { QUOTELAKE_ZSTD: 'lz4' } });
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('quotelake run <pipeline...>');
    const version = await runCli(['--version'], { env: { QUOTELAKE_ZSTD: 'lz4' } });
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('a wrong value leaves help, completion scripts and Tab completion working (they write no Parquet)', async () => {
    const env = { QUOTELAKE_ZSTD: 'lz4' };
    const help = await runCli(['help'], { env });
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('quotelake <command> [options]');
    const script = await runCli(['completion', 'bash'], { env });
    expect(script.code, script.stderr).toBe(0);
    expect(script.stdout).toContain('###-begin-quotelake-completions-###');
    // What the bash script runs at each Tab (its stderr goes to /dev/null there).
    const words = await runCli(['--get-yargs-completions', 'quotelake', 'ru'], { env });
    expect(words.code, words.stderr).toBe(0);
    expect(words.stdout.split('\n')).toContain('run');
    // A command that reads or writes files is still refused.
    const list = await runCli(['list'], { env });
    expect(list.code).toBe(2);
    expect(list.stderr).toContain('QUOTELAKE_ZSTD must be native or wasm, not "lz4"');
  });
});
