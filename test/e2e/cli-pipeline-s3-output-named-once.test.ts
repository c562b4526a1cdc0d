/**
 * A refused s3:// output in a pipeline file is named once in its message: it was shown quoted, then
 * again before the problem (`options.outputDir: "s3://lake/a//b" s3://lake/a//b: …`). The built CLI.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

const HEAD = 'name: out-once\nsource:\n  type: kline-latest\n  codes: [BTCUSDT]\n  intervals: [1m]\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n';

async function validate(text: string): Promise<{ code: number | null; stderr: string }> {
  const dir = tempDir('ql-out-once-');
  writeFileSync(join(dir, 'out-once.yaml'), text);
  return runCli(['validate', 'out-once.yaml'], { cwd: dir });
}

describe('validate of a pipeline with a refused s3:// output', () => {
  it('names options.outputDir once, then the problem', async () => {
    const result = await validate(`${HEAD}options:\n  outputDir: "s3://lake/a//b"\n`);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('out-once.yaml:11:14: options.outputDir: "s3://lake/a//b" the prefix has an empty segment (// or a leading or trailing /)\n');
    expect(result.stderr.split('s3://lake/a//b')).toHaveLength(2);
  });

  it('names sink.output once, then the problem', async () => {
    const result = await validate(`${HEAD}  output: s3://lake/a/../b\n`);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('out-once.yaml:10:11: sink.output: "s3://lake/a/../b" the prefix has a ".." segment (object stores do not resolve them)\n');
    expect(result.stderr.split('s3://lake/a/../b')).toHaveLength(2);
  });
});
