/**
 * `~/lake` or `${LAKE}` in a pipeline's paths (or after `--output=`, where no shell expands `~`)
 * once made a folder literally named `~` or `${LAKE}` where quotelake ran, and the run exited 0:
 * now each is a problem at its file:line:column (exit 2) before any folder is made.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, tempDir } from './helpers/cli.js';

// A dead service: a request would fail with exit 1, so exit 2 shows the check came first.
const SERVICE = ['--base-url', 'http://127.0.0.1:9', '--token', 'sk-live-abcdefghijkl', '--plan', 'free'];

const TRADES = 'name: t\nsource:\n  type: trade-snapshot\n  codes: [BTCUSDT]\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n';

function pipelineFile(name: string, text: string): string {
  const file = join(tempDir('ql-unexpanded-'), name);
  writeFileSync(file, text);
  return file;
}

describe('paths a shell would have expanded', () => {
  it('~ and $VAR in outputDir, stateDir, sink.output and plansFile are problems at their line; no folder is made', async () => {
    const file = pipelineFile(
      'env.yaml',
      `name: t\nservice:\n  plansFile: ~/plans.yaml\n  plan: mine\nsource:\n  type: trade-snapshot\n  codes: [BTCUSDT]\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n  output: \${LAKE}/q\noptions:\n  outputDir: \${LAKE}/q\n  stateDir: $STATE/q\n`,
    );
    const cwd = tempDir('ql-unexpanded-cwd-');
    const [validate, run] = await Promise.all([runCli(['validate', file]), runCli(['run', file, ...SERVICE], { cwd })]);
    for (const r of [validate, run]) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`${file}:3:14: service.plansFile: "~/plans.yaml" starts with ~, which quotelake does not expand`);
      expect(r.stderr).toContain(`write the whole path, e.g. ${homedir()}/plans.yaml`);
      expect(r.stderr).toContain(`${file}:12:11: sink.output: "\${LAKE}/q" holds \${LAKE}, which quotelake does not expand`);
      expect(r.stderr).toContain(`${file}:14:14: options.outputDir: "\${LAKE}/q" holds \${LAKE}`);
      expect(r.stderr).toContain(`${file}:15:13: options.stateDir: "$STATE/q" holds $STATE`);
    }
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('a tilde in outputDir alone, with a shipped-style pipeline, is refused before the run', async () => {
    const file = pipelineFile('tilde.yaml', `${TRADES}options:\n  outputDir: ~/lake\n`);
    const cwd = tempDir('ql-unexpanded-cwd-');
    const r = await runCli(['run', file, ...SERVICE], { cwd });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${file}:10:14: options.outputDir: "~/lake" starts with ~`);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('an ndjson sink path with ~ or $VAR is a problem at its line', async () => {
    const file = pipelineFile('nd.yaml', TRADES.replace('type: parquet', 'type: ndjson\n  path: $EXPORTS/{dataset}.ndjson'));
    const r = await runCli(['validate', file]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${file}:9:9: sink.path: "$EXPORTS/{dataset}.ndjson" holds $EXPORTS, which quotelake does not expand`);
  });

  it('--output=~/lake and a single-quoted --state-dir are exit 2 with the way out', async () => {
    const cwd = tempDir('ql-unexpanded-cwd-');
    const tiny = join(ROOT, 'test/fixtures/pipelines/tiny-trades.yaml');
    const [output, stateDir] = await Promise.all([
      runCli(['run', tiny, ...SERVICE, '--output=~/lake'], { cwd }),
      runCli(['run', tiny, ...SERVICE, '--state-dir', '$STATE/q'], { cwd }),
    ]);
    expect(output.code, output.stderr).toBe(2);
    expect(output.stderr).toContain('quotelake: the output "~/lake" starts with ~, which quotelake does not expand');
    expect(output.stderr).toContain('hint: give it as a word of its own (--output ~/lake, not --output=~/lake)');
    expect(stateDir.code, stateDir.stderr).toBe(2);
    expect(stateDir.stderr).toContain('quotelake: the state dir "$STATE/q" holds $STATE, which quotelake does not expand');
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('a folder name with a $ that is no variable name stays allowed', async () => {
    const file = pipelineFile('dollar.yaml', `${TRADES}options:\n  outputDir: lake$1/x~y\n`);
    const r = await runCli(['validate', file]);
    expect(r.code, r.stderr).toBe(0);
  });
});
