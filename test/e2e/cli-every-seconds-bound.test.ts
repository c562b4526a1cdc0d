/**
 * `everySeconds: 0` (or below) is said once, by the bound the schema sets (1 to 86400). Before, it
 * also got "everySeconds needs count or durationSeconds, or the source would never stop", a message
 * about a repeat that a value of 0 cannot give. A valid everySeconds without an end still gets it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

const pipeline = (every: string) => `name: p\nsource:\n  type: trade-snapshot\n  codes: [BTCUSDT]\n  everySeconds: ${every}\nsink:\n  type: ndjson\n`;

describe('everySeconds out of its bounds', () => {
  it.each([
    ['0', '0 must be at least 1'],
    ['-5', '-5 must be at least 1'],
    ['100000', '100000 must be at most 86400'],
  ])('%s is one problem, its bound', async (every, said) => {
    const file = join(tempDir('ql-every-'), 'p.yaml');
    writeFileSync(file, pipeline(every));
    const r = await runCli(['validate', file]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`quotelake: ${file}:5:17: source.everySeconds: ${said}\n`);
    expect(r.stderr).not.toContain('needs count');
  });

  it('a valid one without count or durationSeconds is still told it would never stop', async () => {
    const file = join(tempDir('ql-every-'), 'p.yaml');
    writeFileSync(file, pipeline('5'));
    const r = await runCli(['validate', file]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`quotelake: ${file}:5:17: source.everySeconds: everySeconds needs count or durationSeconds, or the source would never stop\n`);
  });
});
