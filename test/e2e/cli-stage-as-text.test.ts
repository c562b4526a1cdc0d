/**
 * `sink: parquet` (a stage written as a word) gets "{ type: parquet }" as the fix; any other text
 * there is not written back in the fix: a URL's password was printed in clear beside its redacted
 * quote, and a 100 kB value came back whole (the quote itself is cut).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

describe('a stage written as text', () => {
  it('a type word is offered back as { type: word }; a URL or long text is not echoed', async () => {
    const dir = tempDir('ql-stage-text-');
    const file = join(dir, 'p.yaml');
    writeFileSync(file, `name: t\nsource: trade-snapshot\ntransforms:\n  - ${'k'.repeat(100_000)}\nsink: "https://me:hunter2-secret@lake.example/x"\n`);
    const r = await runCli(['validate', file]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${file}:2:9: source: expected a mapping, got string "trade-snapshot": a stage is a mapping with its type, { type: trade-snapshot }\n`);
    expect(r.stderr).toContain(`${file}:5:7: sink: expected a mapping, got string "https://me:***@lake.example/x": a stage is a mapping with its type, { type: <type> }\n`);
    expect(r.stderr).toMatch(/transforms\[0\]: expected a mapping, got string "k+…": a stage is a mapping with its type, \{ type: <type> \}\n/);
    expect(r.stderr).not.toContain('hunter2');
    expect(r.stderr.length).toBeLessThan(2_000);
  });
});
