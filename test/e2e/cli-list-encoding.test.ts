/** `quotelake list` reads descriptions as validate reads the file: a file that is not UTF-8 is said so, never shown with U+FFFD. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

describe('list of a pipeline file that is not UTF-8', () => {
  it('names the place of the first byte that is no UTF-8, as validate does, in text and JSON', async () => {
    const cwd = tempDir('ql-list-');
    mkdirSync(join(cwd, 'pipelines'));
    // "café" saved as Latin-1: the é is the single byte 0xE9.
    const yaml = 'name: cafe\ndescription: prices of the café\nsource:\n  type: kline-history\n  codes: [BTCUSDT]\n  intervals: [1m]\nsink:\n  type: parquet\n';
    writeFileSync(join(cwd, 'pipelines', 'cafe.yaml'), Buffer.from(yaml, 'latin1'));
    writeFileSync(join(cwd, 'pipelines', 'wide.yaml'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('# Wide.\nname: wide\n', 'utf16le')]));
    writeFileSync(join(cwd, 'pipelines', 'fine.yaml'), '# Fine, in UTF-8: café.\nname: fine\n');
    const [text, json, validate] = await Promise.all([runCli(['list'], { cwd }), runCli(['list', '--json'], { cwd }), runCli(['validate', 'cafe'], { cwd })]);
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n').slice(0, 4)).toEqual([
      'Local pipelines (./pipelines):',
      '  cafe                   (not UTF-8 text at line 2, column 31: save the file as UTF-8)',
      '  fine                   Fine, in UTF-8: café.',
      '  wide                   (not UTF-8 text at line 1, column 1: save the file as UTF-8)',
    ]);
    expect(text.stdout).not.toContain('\uFFFD');
    const described = (JSON.parse(json.stdout) as { pipelines: { name: string; description: string }[] }).pipelines.filter((p) => ['cafe', 'wide'].includes(p.name));
    expect(described.map((p) => p.description)).toEqual(['(not UTF-8 text at line 2, column 31: save the file as UTF-8)', '(not UTF-8 text at line 1, column 1: save the file as UTF-8)']);
    expect(validate.stderr).toContain('pipelines/cafe.yaml:2:31: the file is not UTF-8 text');
  });
});
