import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listPipelines } from '../../src/cli/actions/list.js';
import { readQuotaEntries } from '../../src/cli/actions/quota.js';
import { pipelineNames, resolvePipelineRef } from '../../src/cli/pipeline-ref.js';
import { UsageError } from '../../src/cli/usage-error.js';
import { tokenHash16 } from '../../src/api/index.js';
import { tempDir } from '../e2e/helpers/cli.js';

function layout(): { cwd: string; shipped: string } {
  const cwd = tempDir();
  const shipped = join(tempDir(), 'pipelines/');
  mkdirSync(join(cwd, 'pipelines/sub'), { recursive: true });
  mkdirSync(join(shipped, 'demo'), { recursive: true });
  writeFileSync(join(cwd, 'pipelines/mine.yaml'), 'description: My own pipeline.\nname: mine\n');
  writeFileSync(join(cwd, 'pipelines/demo.yaml'), '# Local demo wins.\nname: demo\n');
  writeFileSync(join(cwd, 'pipelines/sub/deep.yml'), '# yaml-language-server: $schema=x\n# Nested one.\nname: deep\n');
  writeFileSync(join(shipped, 'demo.yaml'), '# Shipped demo.\nname: demo\n');
  writeFileSync(join(shipped, 'demo/1-step.yaml'), '# First step.\nname: step\n');
  writeFileSync(join(cwd, 'file.yaml'), 'name: f\n');
  return { cwd, shipped };
}

describe('pipeline references', () => {
  it('a path, then ./pipelines/<name>, then the shipped <name>', () => {
    const { cwd, shipped } = layout();
    expect(resolvePipelineRef('file.yaml', cwd, shipped)).toMatchObject({ display: 'file.yaml', origin: 'path' });
    expect(resolvePipelineRef('demo', cwd, shipped)).toMatchObject({ display: join('pipelines', 'demo.yaml'), origin: 'local' });
    expect(resolvePipelineRef('sub/deep', cwd, shipped)).toMatchObject({ origin: 'local' });
    expect(resolvePipelineRef('demo/1-step', cwd, shipped)).toMatchObject({ path: join(shipped, 'demo/1-step.yaml'), origin: 'shipped' });
    expect(() => resolvePipelineRef('nope', cwd, shipped)).toThrow(UsageError);
    expect(() => resolvePipelineRef('../x', cwd, shipped)).toThrow(/not found/);
  });

  it('an empty or blank argument (an unset shell variable) is said as such, not as the current folder', () => {
    const { cwd, shipped } = layout();
    for (const ref of ['', '  ']) expect(() => resolvePipelineRef(ref, cwd, shipped), JSON.stringify(ref)).toThrow('a pipeline argument is empty');
  });

  it('a folder, a named pipe or a dangling link is said as what it is, not as a missing file', () => {
    const { cwd, shipped } = layout();
    symlinkSync(join(cwd, 'gone.yaml'), join(cwd, 'link.yaml'));
    expect(() => resolvePipelineRef('pipelines', cwd, shipped)).toThrow('pipelines is a folder, not a pipeline file');
    expect(() => resolvePipelineRef('link.yaml', cwd, shipped)).toThrow(`link.yaml is a link to ${join(cwd, 'gone.yaml')}, which does not exist`);
    if (process.platform !== 'win32') {
      execFileSync('mkfifo', [join(cwd, 'fifo.yaml')]);
      expect(() => resolvePipelineRef('fifo.yaml', cwd, shipped)).toThrow('fifo.yaml is a named pipe, not a pipeline file');
    }
  });

  it('a dangling link among the pipelines is passed over, by the names and by list', async () => {
    const { cwd, shipped } = layout();
    symlinkSync(join(cwd, 'gone'), join(cwd, 'pipelines/broken'));
    symlinkSync(join(cwd, 'gone.yaml'), join(cwd, 'pipelines/broken.yaml'));
    expect(() => resolvePipelineRef('mone', cwd, shipped)).toThrow('no pipeline named mone; did you mean mine?');
    expect((await listPipelines(cwd, shipped)).map((i) => i.name)).toContain('mine');
  });

  it('a pipeline named with its file extension but no folder (kline-backfill.yaml) gets its name', () => {
    const { cwd, shipped } = layout();
    expect(() => resolvePipelineRef('mine.yaml', cwd, shipped)).toThrow('no pipeline file mine.yaml; did you mean mine?');
    expect(() => resolvePipelineRef('mone.yml', cwd, shipped)).toThrow('no pipeline file mone.yml; did you mean mine?');
  });

  it('list shows names and one-line descriptions; a local name hides the shipped one', async () => {
    const { cwd, shipped } = layout();
    const items = await listPipelines(cwd, shipped);
    expect(items.map((i) => [i.origin, i.name, i.description, i.shadowed])).toEqual([
      ['local', 'demo', 'Local demo wins.', false],
      ['local', 'mine', 'My own pipeline.', false],
      ['local', 'sub/deep', 'Nested one.', false],
      ['shipped', 'demo', 'Shipped demo.', true],
      ['shipped', 'demo/1-step', 'First step.', false],
    ]);
  });
});

describe('a pipeline file whose name is not a pipeline name', () => {
  it('is listed by its path, which runs it, and never offered as a name', async () => {
    const { cwd, shipped } = layout();
    writeFileSync(join(cwd, 'pipelines/a b.yaml'), '# Spaced.\nname: spaced\n');
    const items = await listPipelines(cwd, shipped);
    expect(items.find((i) => i.description === 'Spaced.')).toMatchObject({ name: join('pipelines', 'a b.yaml'), origin: 'local' });
    expect(resolvePipelineRef(join('pipelines', 'a b.yaml'), cwd, shipped)).toMatchObject({ origin: 'path' });
    expect(pipelineNames(join(cwd, 'pipelines'))).toEqual(['demo', 'mine', 'sub/deep']);
  });
});

describe('quota files', () => {
  it('shows today\'s use, the limit, what is left and the next midnight per token', async () => {
    const state = tempDir();
    mkdirSync(join(state, 'quota'));
    const now = Date.parse('2026-11-22T10:00:00Z');
    const mine = tokenHash16('sk-my-real-token-1');
    writeFileSync(join(state, 'quota', `${mine}.json`), JSON.stringify({ version: 1, tokenHash: mine, day: '2026-11-22', timeZone: 'UTC', used: 120, limit: 1000 }));
    const old = tokenHash16('someone-else');
    writeFileSync(join(state, 'quota', `${old}.json`), JSON.stringify({ version: 1, tokenHash: old, day: '2026-11-21', timeZone: 'Asia/Shanghai', used: 900, limit: 86400 }));
    const entries = await readQuotaEntries(state, new Map([[mine, 'sk-m…']]), now);
    expect(entries).toHaveLength(2);
    const byHash = Object.fromEntries(entries.map((e) => [e.tokenHash, e]));
    expect(byHash[mine]).toMatchObject({ token: 'sk-m…', usedToday: 120, limit: 1000, remaining: 880, resetAt: '2026-11-23T00:00:00.000Z' });
    // 10:00 UTC is 18:00 in Shanghai on the 22nd: yesterday's file counts nothing today.
    expect(byHash[old]).toMatchObject({ token: old, usedToday: 0, remaining: 86400, resetAt: '2026-11-22T16:00:00.000Z' });
  });
});
