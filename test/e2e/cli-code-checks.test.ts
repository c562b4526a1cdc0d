/**
 * Every source that takes codes refuses an unknown, mis-cased or impossible code before the first
 * request: exit 2 with a "did you mean", from --codes and from a pipeline file (file:line:column).
 * A counting HTTP server on loopback stands in for the service, so "no request" is a number.
 */
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

let server: Server;
let requests = 0;
let baseUrl = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    req.resume();
    res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const SERVICE = ['--base-url', '', '--token', 'demo-professional', '--plan', 'professional', '--quiet'];
const service = () => SERVICE.map((a) => (a === '' ? baseUrl : a));

/** One shipped pipeline per source type that takes codes. */
const BY_SOURCE = [
  ['kline-history', 'kline-backfill'],
  ['kline-latest', 'demo/1-kline-latest'],
  ['depth-snapshot', 'demo/2-depth-snapshot'],
  ['trade-snapshot', 'trades-ndjson'],
] as const;

describe('product codes are checked against the catalog before any request', () => {
  it.each(BY_SOURCE)('%s: --codes btcusdt,ETHUSDT is exit 2 with did you mean "BTCUSDT"', async (_type, pipeline) => {
    const before = requests;
    const r = await runCli(['run', pipeline, '--codes', 'btcusdt,ETHUSDT', '--output', tempDir(), ...service()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--codes: source.codes[0]: unknown product code "btcusdt"; did you mean "BTCUSDT"?');
    expect(r.stdout).toBe('');
    expect(requests - before).toBe(0);
  });

  it.each(BY_SOURCE)('%s: impossible and unknown codes (.., NOPE.US, a/b) are exit 2, nothing sent', async (_type, pipeline) => {
    const before = requests;
    const results = await Promise.all(
      ['..', 'NOPE.US', 'a/b', 'BTCUSDT,FOOBAR'].map((codes) => runCli(['run', pipeline, '--codes', codes, '--output', tempDir(), ...service()])),
    );
    const [dots, nope, slash, foobar] = results;
    for (const r of results) expect(r.code).toBe(2);
    expect(dots!.stderr).toContain('source.codes[0]: ".." is not a product code: letters and digits');
    expect(slash!.stderr).toContain('source.codes[0]: "a/b" is not a product code: letters and digits');
    // Said once: the catalog check adds nothing to a value that is no code (no near code to suggest).
    expect(slash!.stderr).not.toContain('unknown product code');
    expect(nope!.stderr).toContain('source.codes[0]: unknown product code "NOPE.US": not in the product catalog');
    expect(foobar!.stderr).toContain('source.codes[1]: unknown product code "FOOBAR"');
    expect(requests - before).toBe(0);
  });

  it('the trade-snapshot case of issue 11: btcusdt,FOOBAR names both codes, exit 2', async () => {
    const r = await runCli(['run', 'trades-ndjson', '--codes', 'btcusdt,FOOBAR', '--output', tempDir(), ...service()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('source.codes[0]: unknown product code "btcusdt"; did you mean "BTCUSDT"?');
    expect(r.stderr).toContain('source.codes[1]: unknown product code "FOOBAR"');
  });

  it('a code in a pipeline file is reported with file:line:column; codesOutsideCatalog lets a declared one through', async () => {
    const dir = tempDir();
    const bad = join(dir, 'bad-depth.yaml');
    writeFileSync(bad, 'name: bad-depth\nsource:\n  type: depth-snapshot\n  codes: [BTCUSDT, ethusdt]\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n');
    const declared = join(dir, 'declared.yaml');
    writeFileSync(declared, 'name: declared\nsource:\n  type: trade-snapshot\n  codes: [BTCUSDT, NOSUCH]\n  codesOutsideCatalog: [NOSUCH]\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n');
    const waved = join(dir, 'waved.yaml');
    writeFileSync(waved, 'name: waved\nsource:\n  type: trade-snapshot\n  codes: [btcusdt]\n  codesOutsideCatalog: [btcusdt]\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n');
    const before = requests;
    const [r, ok, typo] = await Promise.all([
      runCli(['run', bad, '--output', dir, ...service()]),
      runCli(['validate', declared]),
      runCli(['validate', waved]),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${bad}:4:20: source.codes[1]: unknown product code "ethusdt"; did you mean "ETHUSDT"?`);
    expect(requests - before).toBe(0);
    expect(ok.code).toBe(0);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('"btcusdt" is the catalog\'s "BTCUSDT" in another case');
  });

  it('--codes on a pipeline with codesOutsideCatalog: the declarations of codes it leaves out are dropped, not refused', async () => {
    // The shipped demo declares NOSUCH; narrowing it to catalog codes must not ask for the file to be edited.
    const dir = tempDir();
    const before = requests;
    const [narrowed, kept] = await Promise.all([
      runCli(['run', 'demo/2-depth-snapshot', '--codes', 'BTCUSDT,ETHUSDT', '--dry-run', '--output', dir, ...service()]),
      runCli(['run', 'demo/2-depth-snapshot', '--codes', 'BTCUSDT,NOSUCH', '--dry-run', '--output', dir, ...service()]),
    ]);
    expect(narrowed.stderr).not.toContain('codesOutsideCatalog');
    expect(narrowed.code).toBe(0);
    expect(kept.code, kept.stderr).toBe(0);
    expect(requests - before).toBe(0);
  });
});
