/**
 * Two YAML slips a person makes by hand, each one problem in words that say what to do: a tab that
 * indents a line (it also drew two errors that only follow from it) and a key written twice (the
 * message named neither the key nor its first place).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

describe('YAML syntax slips', () => {
  it('a tab indent and a duplicate key are one problem each, at their line and column', async () => {
    const dir = tempDir('ql-yaml-words-');
    const tab = join(dir, 'tab.yaml');
    writeFileSync(tab, 'name: t\nsource:\n\ttype: trade-snapshot\n  codes: [BTCUSDT]\nsink:\n  type: parquet\n');
    const twice = join(dir, 'twice.yaml');
    writeFileSync(twice, 'name: t\nsource:\n  type: trade-snapshot\n  codes: [BTCUSDT]\n  codes: [ETHUSDT]\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n');
    const r = await runCli(['validate', tab, twice]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      `quotelake: ${tab}:3:1: YAML syntax error: a tab indents this line, and YAML indents with spaces only: replace the tab with spaces (as many as the lines around it use)\n`,
    );
    expect(r.stderr).toContain(`quotelake: ${twice}:5:3: YAML syntax error: key "codes" is written twice in this mapping (first at line 4): keep one\n`);
    expect(r.stderr).not.toMatch(/problems in the pipeline|Nested mappings|Implicit keys|Map keys must be unique/);
  });
});
