import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTokenList } from '../../src/cli/token-list.js';
import { checkTokenPool, resolveTokenPool } from '../../src/cli/token-pool-settings.js';
import { projectFolders, readTokensFile } from '../../src/cli/tokens-file.js';
import { UsageError } from '../../src/cli/usage-error.js';

const ODD = 'a:b=c/d+e%41';

function caught(f: () => unknown): UsageError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return e as UsageError;
  }
  throw new Error('did not throw');
}

describe('QUOTELAKE_TOKENS', () => {
  it('token:plan pairs split at the last colon: a token keeps its colons, =, /, + and % as written', () => {
    expect(parseTokenList(`${ODD}:professional, tokB:premium\n tokC:all-us `)).toEqual([
      { token: ODD, plan: 'professional' },
      { token: 'tokB', plan: 'premium' },
      { token: 'tokC', plan: 'all-us' },
    ]);
  });

  it('a JSON list for tokens with commas or blanks', () => {
    expect(parseTokenList('[{"token":"x, y z","plan":"basic"},{"token":"w","plan":"free"}]')).toEqual([
      { token: 'x, y z', plan: 'basic' },
      { token: 'w', plan: 'free' },
    ]);
  });

  it('tokens are trimmed like QUOTELAKE_TOKEN, and a token of blanks only is refused', () => {
    expect(parseTokenList('[{"token":" x y ","plan":"basic"}]')).toEqual([{ token: 'x y', plan: 'basic' }]);
    expect(parseTokenList('abc :free')).toEqual([{ token: 'abc', plan: 'free' }]);
    expect(caught(() => parseTokenList('[{"token":"  ","plan":"basic"}]')).message).toBe('QUOTELAKE_TOKENS: entry 1 of 1: "token" is empty');
  });

  it('an empty entry between commas or at an end is refused by position; line breaks and blank lines are layout', () => {
    expect(caught(() => parseTokenList('a:free,,b:basic')).message).toBe('QUOTELAKE_TOKENS: entry 2 of 3 is empty (nothing between two commas, or a comma at an end: an unset variable?)');
    expect(caught(() => parseTokenList('a:free,b:basic,')).message).toContain('entry 3 of 3 is empty');
    expect(parseTokenList('a:free,\n\n b:basic\r\nc:free')).toEqual([
      { token: 'a', plan: 'free' },
      { token: 'b', plan: 'basic' },
      { token: 'c', plan: 'free' },
    ]);
  });

  it('a bad entry is named by its position, never quoted', () => {
    const secret = 'SECRET-ABCDEFGH';
    for (const text of [secret, `${secret}:`, `:${secret}`, `[{"token":"${secret}"}]`, `[{"token":"${secret}","plan":"free","x":1}]`, `[{"token":"${secret}",}]`, '[]']) {
      const e = caught(() => parseTokenList(text));
      expect(e.message).toMatch(/QUOTELAKE_TOKENS/);
      expect(`${e.message} ${e.hint}`).not.toContain(secret);
    }
    expect(caught(() => parseTokenList(`ok:free,${secret}`)).message).toBe('QUOTELAKE_TOKENS: entry 2 of 2 is not token:plan');
    expect(caught(() => parseTokenList('[]')).message).toBe('QUOTELAKE_TOKENS: the list is empty: give at least one {token, plan} entry');
  });

  it('plans checked without quoting them; no token twice; not beside a single token', () => {
    const pool = { tokens: parseTokenList('professional:SECRET-TOKEN-1'), from: 'QUOTELAKE_TOKENS' };
    const e = caught(() => checkTokenPool(pool, undefined, undefined));
    expect(e.message).toBe('QUOTELAKE_TOKENS: entry 1 of 1: its plan is not a known plan (the entry is token:plan)');
    expect(caught(() => checkTokenPool({ tokens: parseTokenList('t1:free,t1:basic'), from: 'QUOTELAKE_TOKENS' }, undefined, undefined)).message).toContain('entry 2 of 2 repeats an earlier token');
    expect(caught(() => checkTokenPool({ tokens: parseTokenList('t1:free'), from: 'QUOTELAKE_TOKENS' }, undefined, 'single')).message).toContain('both a single token');
    // A --plan flag beside a pool paces nothing: refused, not ignored in silence.
    expect(caught(() => checkTokenPool({ tokens: parseTokenList('t1:free'), from: 'QUOTELAKE_TOKENS' }, undefined, undefined, 'basic')).message).toBe(
      '--plan basic does not apply with a token pool (QUOTELAKE_TOKENS): each of its entries carries its own plan',
    );
  });
});

describe('tokens file', () => {
  const home = mkdtempSync(join(tmpdir(), 'ql-tokens-'));

  function write(dir: string, text: string, mode: number): string {
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'tokens.yaml');
    writeFileSync(file, text);
    chmodSync(file, mode);
    return file;
  }

  it('reads tokens: [{token, plan}] (or the list alone) from a file only its owner can read', async () => {
    const file = write(join(home, 'ok'), `tokens:\n  - token: "${ODD}"\n    plan: premium\n  - {token: "x y", plan: basic}\n`, 0o600);
    expect(await readTokensFile(file, [])).toEqual([
      { token: ODD, plan: 'premium' },
      { token: 'x y', plan: 'basic' },
    ]);
    const list = write(join(home, 'list'), '- token: t\n  plan: free\n', 0o640);
    expect(await readTokensFile(list, [])).toEqual([{ token: 't', plan: 'free' }]);
    // The flag, then QUOTELAKE_TOKENS_FILE, then QUOTELAKE_TOKENS.
    expect(await resolveTokenPool({ 'tokens-file': list }, { QUOTELAKE_TOKENS: 'a:free' }, { cwd: home })).toMatchObject({ from: `--tokens-file ${list}` });
    expect(await resolveTokenPool({}, { QUOTELAKE_TOKENS_FILE: list, QUOTELAKE_TOKENS: 'a:free' }, { cwd: home })).toMatchObject({ from: 'QUOTELAKE_TOKENS_FILE' });
    expect(await resolveTokenPool({}, { QUOTELAKE_TOKENS: 'a:free' }, { cwd: home })).toEqual({ tokens: [{ token: 'a', plan: 'free' }], from: 'QUOTELAKE_TOKENS' });
    expect(await resolveTokenPool({}, {}, { cwd: home })).toBeUndefined();
  });

  it('refuses a world-readable or world-writable file, naming the mode and the fix', async () => {
    for (const mode of [0o644, 0o602]) {
      const file = write(join(home, `open-${mode.toString(8)}`), 'tokens: []\n', mode);
      await expect(readTokensFile(file, [])).rejects.toThrow(`(mode ${mode.toString(8)})`);
    }
  });

  it('refuses a file inside a project folder (a .git or package.json above the working directory or a pipeline, or a pipeline\'s folder)', async () => {
    const project = join(home, 'project');
    mkdirSync(join(project, 'pipelines'), { recursive: true });
    writeFileSync(join(project, 'package.json'), '{}');
    const file = write(join(project, 'config'), 'tokens: []\n', 0o600);
    const fromCwd = await projectFolders(join(project, 'pipelines'), []);
    await expect(readTokensFile(file, fromCwd)).rejects.toThrow('is inside the project folder');
    const fromPipeline = await projectFolders(home, [join(project, 'pipelines', 'p.yaml')]);
    await expect(readTokensFile(file, fromPipeline)).rejects.toThrow('is inside the project folder');
    const beside = write(join(home, 'loose'), 'tokens: []\n', 0o600);
    await expect(readTokensFile(beside, await projectFolders(home, [join(home, 'loose', 'p.yaml')]))).rejects.toThrow('is inside the project folder');
  });

  it('a YAML error names its line and column and the rule broken, never the file\'s text', async () => {
    const file = write(join(home, 'bad'), 'tokens:\n  - token: "SECRET-QQQQQQQQ\n', 0o600);
    const e = (await readTokensFile(file, []).catch((x: unknown) => x)) as UsageError;
    expect(e.message).toMatch(/is not valid YAML at line \d+, column \d+: /);
    expect(e.message).not.toContain('SECRET');
    expect(e.hint).toContain('its text is not printed here');
    const indented = write(join(home, 'bad2'), 'tokens:\n  - token: SECRET-QQQQQQQQ\n    plan: [basic\n', 0o600);
    const f = (await readTokensFile(indented, []).catch((x: unknown) => x)) as Error;
    expect(f.message).toContain('is not valid YAML at line 4, column 1: Flow sequence in block collection');
    expect(f.message).not.toContain('SECRET');
  });

  it('a JSON error never quotes the file either (V8\'s message does)', async () => {
    const file = join(write(join(home, 'json'), 'tokens: []\n', 0o600), '..', 'tokens.json');
    writeFileSync(file, '{"tokens": [{"token": "SECRET-QQQQQQQQ", "plan": basic}]}');
    chmodSync(file, 0o600);
    const e = (await readTokensFile(file, []).catch((x: unknown) => x)) as Error;
    expect(e.message).toContain('is not valid JSON');
    expect(e.message).not.toContain('SECRET');
  });
});
