/** The one parser of the plans file, and how each side maps a custom plan onto its own table. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { customPlanLimits as clientLimits, planLimits, PLANS as CLIENT_PLANS } from '../../src/api/plans.js';
import { PlansFileError } from '../../src/core/errors.js';
import { knownPlanNames, parsePlansDocument, readPlansFile } from '../../src/core/plans-file.js';
import { customPlanLimits as emulatorLimits } from '../../src/emulator/plans.js';
import { buildTokenTable, loadPlansFile } from '../../src/emulator/plans-file.js';

const dir = mkdtempSync(join(tmpdir(), 'ql-plans-core-'));
const write = (name: string, text: string) => {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
};

const ENTERPRISE = `plans:
  - name: enterprise
    base: professional
    perSecond: 100
    perMinute: 6000
    perDay: 8640000
    batchKlineGapMs: 200
    suspensionGapMs: 1000
    batchKlineItemCap: 500
    tickCodesCap: null
  - name: replay
    perSecond: unlimited
    perMinute: unlimited
    perDay: unlimited
    batchKlineGapMs: 0
    suspensionGapMs: 0
  - name: slow-hk
    base: free
    market: HK
tokens:
  - token: my-test-token
    plan: enterprise
`;

describe('plans file: the plans: section', () => {
  it('reads YAML and JSON; limits not given are the base plan\'s on each side', async () => {
    const doc = await readPlansFile(write('plans.yaml', ENTERPRISE));
    expect(doc.plans.map((p) => [p.name, p.base])).toEqual([
      ['enterprise', 'professional'],
      ['replay', 'professional'],
      ['slow-hk', 'free'],
    ]);
    expect(knownPlanNames(doc)).toEqual(['free', 'basic', 'premium', 'professional', 'all-hk', 'all-cn', 'all-us', 'enterprise', 'replay', 'slow-hk']);
    const json = await readPlansFile(write('plans.json', JSON.stringify({ plans: [{ name: 'x', perSecond: 3 }] })));
    expect(json.plans).toEqual([{ name: 'x', base: 'professional', perSecond: 3 }]);

    const e = planLimits('enterprise', doc);
    expect(e).toEqual({
      name: 'enterprise',
      perSecond: { limit: 100, windowMs: 1000 },
      perMinute: { limit: 6000, windowMs: 60_000 },
      perDay: 8_640_000,
      batchKlineGapMs: 200,
      suspensionGapMs: 1000,
      tickCodesCap: null,
      batchKlineItemCap: 500,
    });
    const r = clientLimits(doc.plans[1]!);
    expect([r.perSecond.limit, r.perMinute.limit, r.perDay, r.batchKlineGapMs, r.suspensionGapMs]).toEqual([Infinity, Infinity, Infinity, 0, 0]);
    // Free as the base keeps Free's 10 s window and every other limit when none is given; the client
    // knows the market too (to name the codes outside it in a 604), though only the emulator enforces it.
    const slow = planLimits('slow-hk', doc);
    expect({ ...slow, name: 'free' }).toEqual({ ...CLIENT_PLANS.free, market: 'HK' });
    // The emulator maps the same entries onto its own table (market included).
    const emu = emulatorLimits(doc.plans[2]!);
    expect([emu.perSecond.count, emu.perSecond.windowMs, emu.perDay, emu.tickCodeCap, emu.market]).toEqual([1, 10_000, 1000, 5, 'HK']);
    expect(emulatorLimits(doc.plans[0]!)).toMatchObject({ perSecond: { count: 100, windowMs: 1000 }, perMinute: { count: 6000 }, perDay: 8_640_000, batchKlineGapMs: 200, market: null });
    expect(emulatorLimits(doc.plans[1]!).perMinute.count).toBe(Infinity);
  });

  it('the client never reads tokens: (any shape); the emulator checks them against every known plan', async () => {
    const file = write('tokens-odd.yaml', 'plans:\n  - name: p1\ntokens: 42\n');
    expect((await readPlansFile(file)).plans).toHaveLength(1);
    await expect(loadPlansFile(file)).rejects.toThrow(/tokens-odd\.yaml: tokens: /);
    const ok = await loadPlansFile(write('tokens.yaml', ENTERPRISE));
    expect(ok.tokens).toEqual([{ token: 'my-test-token', plan: 'enterprise' }]);
    const table = buildTokenTable(ok.tokens, ok.customPlans);
    expect(table.get('my-test-token')?.plan.perSecond).toEqual({ count: 100, windowMs: 1000 });
    // Each custom plan has its demo token; the seven of I3 stay as they are.
    expect(table.get('demo-replay')?.plan.name).toBe('replay');
    expect(table.get('demo-professional')?.plan.perSecond).toEqual({ count: 20, windowMs: 1000 });
    await expect(loadPlansFile(write('tok-bad.yaml', 'tokens:\n  - token: a\n    plan: gold\n'))).rejects.toThrow(
      /tok-bad\.yaml: tokens\[0\]\.plan: "gold" is not a plan \(known plans: free, .*all-us\)/,
    );
  });

  it('errors name the file and the field', async () => {
    const bad = (name: string, text: string) => readPlansFile(write(name, text));
    await expect(readPlansFile(join(dir, 'nope.yaml'))).rejects.toThrow(/nope\.yaml: cannot read/);
    // Each problem in words, at the field as the file reads (plans[0]), with what was written.
    await expect(bad('a.yaml', 'plans:\n  - name: x\n    perSecond: lots\n')).rejects.toThrow(/a\.yaml: plans\[0\]\.perSecond: must be a whole number above 0, or "unlimited", got "lots"$/);
    // Past 2^53 too: the same words, not zod's "Too big: expected int to be <=9007199254740991".
    await expect(bad('b2.yaml', 'plans:\n  - name: x\n    perDay: 1e20\n')).rejects.toThrow(/b2\.yaml: plans\[0\]\.perDay: must be a whole number above 0, or "unlimited", got 100000000000000000000$/);
    await expect(bad('b3.yaml', 'plans:\n  - name: x\n    perSecond: 1.5\n')).rejects.toThrow(/b3\.yaml: plans\[0\]\.perSecond: must be a whole number above 0, or "unlimited", got 1\.5$/);
    await expect(bad('b.yaml', 'plans:\n  - name: x\n    perMinute: 0\n')).rejects.toThrow(/b\.yaml: plans\[0\]\.perMinute: must be a whole number above 0, or "unlimited", got 0$/);
    await expect(bad('c.yaml', 'plans:\n  - name: x\n    burst: 3\n')).rejects.toThrow(/c\.yaml: plans\[0\]: unknown key "burst" \(a plan takes name, base, perSecond, /);
    await expect(bad('d.yaml', 'plans:\n  - name: professional\n')).rejects.toThrow(/d\.yaml: plans\[0\]\.name: "professional" is a built-in plan/);
    await expect(bad('e.yaml', 'plans:\n  - name: x\n  - name: x\n')).rejects.toThrow(/e\.yaml: plans\[1\]\.name: "x" is defined twice/);
    await expect(bad('f.yaml', 'plans:\n  - name: x\n    base: gold\n')).rejects.toThrow(/f\.yaml: plans\[0\]\.base: must be one of free, basic, .*, got "gold"$/);
    await expect(bad('g.yaml', 'plans:\n  - name: "a b"\n')).rejects.toThrow(/g\.yaml: plans\[0\]\.name: must be 1-64 letters.*, got "a b"$/);
    await expect(bad('h.yaml', 'plans:\n  - name: x\n    batchKlineGapMs: -1\n')).rejects.toThrow(/h\.yaml: plans\[0\]\.batchKlineGapMs: must be a whole number of milliseconds from 0 to 86400000, got -1$/);
    await expect(bad('i.yaml', 'plan: []\n')).rejects.toThrow(/i\.yaml: unknown key "plan" \(the file takes plans and tokens\)/);
    await expect(bad('j.json', '{"plans": [')).rejects.toThrow(/j\.json: not valid JSON/);
    await expect(bad('l.yaml', 'plans:\n  - name: x\n    market: EU\n')).rejects.toThrow(/l\.yaml: plans\[0\]\.market: must be HK, CN, US or null, got "EU"$/);
    const error = await bad('k.yaml', 'plans:\n  - name: x\n    perDay: -5\n').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlansFileError);
    expect(error).toMatchObject({ code: 'QL_PLANS_FILE', field: 'plans[0].perDay' });
    // A plan the file does not define: the file and every known plan are named.
    const doc = parsePlansDocument('p.yaml', { plans: [{ name: 'enterprise' }] });
    expect(() => planLimits('gold', doc)).toThrow('p.yaml: plan "gold" is neither built in nor defined here (known plans: free, basic, premium, professional, all-hk, all-cn, all-us, enterprise)');
    // A near miss is named.
    expect(() => planLimits('enterprize', doc)).toThrow('p.yaml: plan "enterprize" is neither built in nor defined here; did you mean "enterprise"? (known plans:');
    expect(() => planLimits('profesional')).toThrow('unknown plan "profesional"; did you mean "professional"? (expected one of');
    // An empty file defines nothing (and is no error).
    expect((await bad('empty.yaml', '')).plans).toEqual([]);
  });

  it('never quotes the text of the file back, which may hold tokens: only where the fault is', async () => {
    const secret = 'tok-SECRET-123';
    const bad = (name: string, text: string) => readPlansFile(write(name, text)).then(() => 'no error', (e: unknown) => (e as Error).message.replace(`${dir}/`, ''));
    const messages = {
      // A tokens file given where a plans file was meant: a string document, or a plans key holding a token.
      tokensFile: await bad('t1.yaml', `${secret}:professional\n`),
      tokensFileJson: await bad('t1.json', `"${secret}:professional"`),
      plansKey: await bad('t2.yaml', `plans: ${secret}\n`),
      // A YAML or JSON typo on a token's line: yaml's and V8's own messages quote that line.
      yamlTypo: await bad('t3.yaml', `tokens:\n  - token: ${secret}\n     plan: professional\n`),
      jsonTypo: await bad('t3.json', `{"tokens": [{"token": "${secret}" "plan": "basic"}]}`),
      longName: await bad('t4.yaml', `plans:\n  - name: ${'x'.repeat(70)}${secret}\n`),
    };
    for (const message of Object.values(messages)) expect(message).not.toContain(secret);
    expect(messages).toEqual({
      tokensFile: 't1.yaml: expected a mapping (plans: and tokens:), got text (27 characters, not shown)',
      tokensFileJson: 't1.json: expected a mapping (plans: and tokens:), got text (27 characters, not shown)',
      plansKey: 't2.yaml: plans: must be a list of plans, got text (14 characters, not shown)',
      yamlTypo: 't3.yaml: not valid YAML at line 2, column 12: Nested mappings are not allowed in compact mappings',
      jsonTypo: 't3.json: not valid JSON at line 1, column 40',
      longName: expect.stringMatching(/^t4\.yaml: plans\[0\]\.name: must be 1-64 letters, digits, "-" or "_", got text \(84 characters, not shown\)$/),
    });
  });
});
