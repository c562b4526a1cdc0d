/**
 * One mistake, one message: a setting of the wrong type is said once (not also "a list of 0
 * items: must have at least 1 item" of a text setting), and an empty NDJSON path once.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

const TRADES = 'name: t\nsource:\n  type: trade-snapshot\n  codes: [BTCUSDT]\ntransforms:\n  - type: parse-decimals\n';

describe('a value of the wrong type or an empty one', () => {
  it('gets one problem at its line and column', async () => {
    const dir = tempDir('ql-one-problem-');
    const lists = join(dir, 'lists.yaml');
    writeFileSync(lists, `${TRADES}sink:\n  type: parquet\n  output: []\noptions:\n  stateDir: []\n`);
    const empty = join(dir, 'empty-path.yaml');
    writeFileSync(empty, `${TRADES}sink:\n  type: ndjson\n  path: ""\n`);
    const r = await runCli(['validate', lists, empty]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`quotelake: 2 problems in the pipeline:\n${lists}:9:11: sink.output: expected a string, got a list\n${lists}:11:13: options.stateDir: expected a string, got a list\n`);
    expect(r.stderr).toContain(`quotelake: ${empty}:9:9: sink.path: "" is empty: an NDJSON file must be inside the output folder`);
    expect(r.stderr).not.toContain('items: must have');
    expect(r.stderr).not.toContain('must be at least 1 character');
  });
});
