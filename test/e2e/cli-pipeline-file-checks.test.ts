/**
 * Pipeline files that once passed validate and then crashed (or crashed validate itself) with the
 * "looks like a bug" hint: each is now a problem at its file:line:column, exit 2, through the built CLI.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, tempDir } from './helpers/cli.js';

const FIXTURES = join(ROOT, 'test/fixtures/pipelines');

const TRADES = 'name: t\nsource:\n  type: trade-snapshot\n  codes: [BTCUSDT]\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n';

/** `text` written as `<name>` in a fresh folder; its path. */
function pipelineFile(name: string, text: string): string {
  const file = join(tempDir('ql-checks-'), name);
  writeFileSync(file, text);
  return file;
}

describe('YAML aliases and merge keys', () => {
  it('an alias without anchor or a merge key without a mapping is a problem at its line; validate goes on to the next file', async () => {
    const alias = pipelineFile('alias.yaml', TRADES.replace('codes: [BTCUSDT]', 'codes: *undefined'));
    const merge = pipelineFile('merge.yaml', TRADES.replace('  type: trade-snapshot', '  <<: *nope\n  type: trade-snapshot'));
    const r = await runCli(['validate', alias, merge, join(FIXTURES, 'tiny-trades.yaml')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${alias}:4:10: source.codes: alias *undefined names no anchor`);
    expect(r.stderr).toContain(`${merge}:3:7: source: alias *nope names no anchor`);
    expect(r.stderr).toMatch(/tiny-trades\.yaml: valid/);
    expect(r.stderr).not.toContain('looks like a bug');
  });
});
