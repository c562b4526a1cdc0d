/**
 * A YAML pipeline is UTF-8. One saved as UTF-16 (PowerShell 5's `>`) or holding a Latin-1 byte is
 * refused at its place with how to save it, exit 2 before any request: the first was "expected a
 * mapping, got string", the second validated with U+FFFD in place of the character.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

const TRADES = 'name: t\nsource:\n  type: trade-snapshot\n  codes: [BTCUSDT]\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n';

/** A dead service: a request would fail with exit 1, so exit 2 shows the file was refused first. */
const SERVICE = ['--base-url', 'http://127.0.0.1:9', '--token', 'demo-professional', '--plan', 'professional'];

const SAVE = 'save the file as UTF-8 (in most editors: "Save with encoding", UTF-8)';

describe('a pipeline file that is not UTF-8', () => {
  it('UTF-16 with its byte order mark, and a Latin-1 byte, are refused at their line and column', async () => {
    const dir = tempDir('ql-encoding-');
    const utf16 = join(dir, 'utf16.yaml');
    writeFileSync(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(TRADES, 'utf16le')]));
    const latin1 = join(dir, 'latin1.yaml');
    writeFileSync(latin1, Buffer.from(`${TRADES}description: caf\xe9 prices\n`, 'latin1'));
    const utf8 = join(dir, 'utf8.yaml');
    writeFileSync(utf8, `${TRADES}description: café prices\n`);
    const [validate, run] = await Promise.all([runCli(['validate', utf16, latin1, utf8]), runCli(['run', latin1, ...SERVICE, '--output', join(dir, 'out')])]);
    expect(validate.code, validate.stderr).toBe(2);
    expect(validate.stderr).toContain(`quotelake: ${utf16}:1:1: the file is UTF-16 text (it starts with a UTF-16 byte order mark), not UTF-8: ${SAVE}\n`);
    expect(validate.stderr).toContain(`quotelake: ${latin1}:9:17: the file is not UTF-8 text: the bytes here are no UTF-8 character (a Latin-1 or Windows-1252 "é" is one such): ${SAVE}\n`);
    expect(validate.stderr).toContain(`${utf8}: valid`);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`${latin1}:9:17: the file is not UTF-8 text`);
  });
});
