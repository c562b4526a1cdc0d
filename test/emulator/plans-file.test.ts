import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTokenTable, loadPlansFile, PlansFileError } from '../../src/emulator/plans-file.js';
import { DEMO_TOKENS, PLANS, redactToken } from '../../src/emulator/plans.js';

const dir = mkdtempSync(join(tmpdir(), 'ql-plans-'));
const write = (name: string, text: string) => {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
};

describe('plan table', () => {
  it('has the limits of limits-rules.md', () => {
    expect(Object.fromEntries(Object.values(PLANS).map((p) => [p.name, [p.perSecond.count, p.perSecond.windowMs, p.perMinute.count, p.perDay, p.batchKlineGapMs, p.batchKlineItemCap, p.tickCodeCap, p.market]]))).toEqual({
      free: [1, 10_000, 10, 1000, 10_000, 5, 5, null],
      basic: [1, 1000, 60, 86_400, 3000, 100, null, null],
      premium: [10, 1000, 600, 864_000, 2000, 200, null, null],
      professional: [20, 1000, 1200, 1_728_000, 1000, 500, null, null],
      'all-hk': [20, 1000, 1200, 1_728_000, 1000, 500, null, 'HK'],
      'all-cn': [20, 1000, 1200, 1_728_000, 1000, 500, null, 'CN'],
      'all-us': [20, 1000, 1200, 1_728_000, 1000, 500, null, 'US'],
    });
    expect(Object.keys(DEMO_TOKENS).sort()).toEqual(
      ['demo-all-cn', 'demo-all-hk', 'demo-all-us', 'demo-basic', 'demo-free', 'demo-premium', 'demo-professional'].sort(),
    );
    expect(redactToken('secret-token')).toBe('secr…');
  });
});

describe('plans file', () => {
  it('reads JSON and YAML', async () => {
    const j = write('p.json', JSON.stringify({ tokens: [{ token: 'abc', plan: 'premium', faults: 'drop=0.5', behaviours: 'all,omit-codes=0' }] }));
    expect((await loadPlansFile(j)).tokens).toEqual([{ token: 'abc', plan: 'premium', faults: 'drop=0.5', behaviours: 'all,omit-codes=0' }]);
    expect(buildTokenTable((await loadPlansFile(j)).tokens).get('abc')?.behaviours).toMatchObject({ omitCodes: 0, overlap: 1 });
    const y = write('p.yaml', 'tokens:\n  - token: xyz\n    plan: all-us\n');
    const grants = (await loadPlansFile(y)).tokens;
    expect(grants).toEqual([{ token: 'xyz', plan: 'all-us' }]);
    const table = buildTokenTable(grants);
    expect(table.get('xyz')?.plan.name).toBe('all-us');
    expect(table.get('demo-free')?.plan.name).toBe('free');
  });
  it('fails clearly, naming the file and the field', async () => {
    await expect(loadPlansFile(join(dir, 'missing.yaml'))).rejects.toThrow(/missing\.yaml: cannot read/);
    await expect(loadPlansFile(write('bad.json', '{"tokens": ['))).rejects.toThrow(/bad\.json: not valid JSON/);
    await expect(loadPlansFile(write('bad.yaml', 'tokens: [a: b: c'))).rejects.toThrow(/bad\.yaml: not valid YAML/);
    // An alias bomb is valid syntax the YAML library refuses to expand: still the file's fault (exit 2), not a crash.
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]', ...'bcdefgh'.split('').map((n, i) => `${n}: &${n} [${Array(9).fill(`*${'abcdefgh'[i]}`).join(', ')}]`)].join('\n');
    await expect(loadPlansFile(write('bomb.yaml', bomb))).rejects.toThrow(/bomb\.yaml: not usable YAML: Excessive alias count/);
    await expect(loadPlansFile(write('bomb.yaml', bomb))).rejects.toBeInstanceOf(PlansFileError);
    // One token twice: refused naming the second, never one plan silently replacing the other (the token is not echoed).
    const twice = write('twice.yaml', 'tokens:\n  - {token: tok-a1, plan: basic}\n  - {token: tok-a1, plan: free}\n');
    await expect(loadPlansFile(twice)).rejects.toThrow(/twice\.yaml: tokens\[1\]\.token: a token given twice/);
    await expect(loadPlansFile(twice)).rejects.not.toThrow(/tok-a1/);
    await expect(loadPlansFile(write('plan.yaml', 'tokens:\n  - token: a\n    plan: gold\n'))).rejects.toThrow(
      /plan\.yaml: tokens\[0\]\.plan/,
    );
    await expect(loadPlansFile(write('extra.yaml', 'tokens: []\nother: 1\n'))).rejects.toThrow(/extra\.yaml/);
    await expect(loadPlansFile(write('f.yaml', 'tokens:\n  - token: a\n    plan: free\n    faults: drop=7\n'))).rejects.toThrow(
      /f\.yaml: tokens\[0\]\.faults: invalid fault spec part "drop=7"/,
    );
    await expect(loadPlansFile(write('b.yaml', 'tokens:\n  - token: a\n    plan: free\n    behaviours: upside-down\n'))).rejects.toThrow(
      /b\.yaml: tokens\[0\]\.behaviours: invalid behaviour spec part "upside-down"/,
    );
  });

  it('keeps a demo token on the plan its name says (I3); on that plan it may take its own faults', async () => {
    await expect(loadPlansFile(write('demo.yaml', 'tokens:\n  - token: demo-free\n    plan: professional\n'))).rejects.toThrow(
      /demo\.yaml: tokens\[0\]\.plan: demo-free is always on plan free, not professional: give this entry a token of its own$/,
    );
    await expect(loadPlansFile(write('demo2.yaml', 'plans:\n  - name: gold\ntokens:\n  - token: demo-gold\n    plan: basic\n'))).rejects.toThrow(
      /tokens\[0\]\.plan: demo-gold is always on plan gold, not basic/,
    );
    const same = await loadPlansFile(write('demo3.yaml', 'tokens:\n  - token: demo-professional\n    plan: professional\n    faults: 5xx=0.1\n'));
    expect(buildTokenTable(same.tokens).get('demo-professional')).toMatchObject({ plan: { name: 'professional' }, faults: { http5xx: 0.1 } });
  });

  it('says in the file\'s own words what is wrong with a token entry, never quoting the token', async () => {
    const cases: [string, RegExp][] = [
      // YAML reads an unquoted 0012345 as a number: the quotes are the fix.
      ['tokens:\n  - token: 0012345\n    plan: basic\n', /: tokens\[0\]\.token: must be text; quote a token YAML would read as a number, as in token: "0012345", got a number$/],
      ['tokens:\n  - token: tok-a1\n', /: tokens\[0\]\.plan: is missing \(must be the name of a built-in or custom plan\)$/],
      ['tokens:\n  - token: tok-a1\n    plan: basic\n    fault: 5xx=0.1\n', /: tokens\[0\]: unknown key "fault" \(a token takes token, plan, faults, behaviours\)$/],
      ['tokens:\n  token: tok-a1\n  plan: basic\n', /: tokens: must be a list of \{token, plan\} entries, got a mapping$/],
      ['tokens:\n  - tok-a1\n', /: tokens\[0\]: must be a mapping \{token, plan\}, got text$/],
      ['tokens:\n  - token: ""\n    plan: basic\n', /: tokens\[0\]\.token: must not be empty$/],
      ['tokens:\n  - token: tok-a1\n    plan: basic\n    faults: 0.1\n', /: tokens\[0\]\.faults: must be a fault spec such as "5xx=0\.1", got a number$/],
    ];
    for (const [text, re] of cases) {
      const err = await loadPlansFile(write('entry.yaml', text)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PlansFileError);
      expect((err as Error).message).toMatch(re);
      expect((err as Error).message).not.toMatch(/tok-a1|Invalid input|expected string/);
    }
  });
});
