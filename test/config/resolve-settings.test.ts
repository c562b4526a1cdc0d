import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { resolveSettings } from '../../src/config/resolve-settings.js';

describe('resolveSettings', () => {
  it('flag > env > file > default, and says where each value came from', () => {
    const r = resolveSettings({
      flags: { outputDir: 'flag-out', since: '2026-01-01T00:00:00Z' },
      env: { QUOTELAKE_BASE_URL: 'http://env:1', QUOTELAKE_PLAN: 'basic', QUOTELAKE_TOKEN: 'env-token-123' },
      file: { baseUrl: 'http://file:1', plan: 'premium', outputDir: 'file-out', codes: ['BTCUSDT'], format: 'arrow' },
      defaults: { format: 'parquet', until: '2026-02-01T00:00:00Z' },
    });
    expect(r.settings).toEqual({
      baseUrl: 'http://env:1',
      token: 'env-token-123',
      plan: 'basic',
      outputDir: 'flag-out',
      stateDir: 'flag-out/.state',
      format: 'arrow',
      since: '2026-01-01T00:00:00Z',
      until: '2026-02-01T00:00:00Z',
      codes: ['BTCUSDT'],
    });
    expect(r.origin).toEqual({
      baseUrl: 'env',
      token: 'env',
      plan: 'env',
      outputDir: 'flag',
      stateDir: 'default',
      format: 'file',
      since: 'flag',
      until: 'default',
      codes: 'file',
    });
  });

  it('the token comes from a flag or the environment, never from a file', () => {
    const file = { token: 'from-file' } as unknown as Record<string, never>;
    expect(resolveSettings({ file }).settings.token).toBeUndefined();
    expect(resolveSettings({ file, env: { QUOTELAKE_TOKEN: 'e' } }).settings.token).toBe('e');
    expect(resolveSettings({ flags: { token: 'f' }, env: { QUOTELAKE_TOKEN: 'e' } }).settings.token).toBe('f');
  });

  it('defaults: output/ and <output>/.state; an explicit stateDir wins', () => {
    expect(resolveSettings({}).settings).toEqual({ outputDir: 'output', stateDir: 'output/.state' });
    expect(resolveSettings({ file: { outputDir: 'lake/', stateDir: 'st' } }).settings).toEqual({ outputDir: 'lake/', stateDir: 'st' });
    expect(resolveSettings({ file: { outputDir: 'lake/' } }).settings.stateDir).toBe('lake/.state');
  });

  it('empty environment variables count as unset', () => {
    const r = resolveSettings({ env: { QUOTELAKE_BASE_URL: '' }, file: { baseUrl: 'http://file:1' } });
    expect(r.settings.baseUrl).toBe('http://file:1');
    expect(r.origin.baseUrl).toBe('file');
  });

  it('a bad plan names the variable or flag', () => {
    expect(() => resolveSettings({ env: { QUOTELAKE_PLAN: 'gold' } })).toThrow(ConfigError);
    expect(() => resolveSettings({ env: { QUOTELAKE_PLAN: 'gold' } })).toThrow(/^QUOTELAKE_PLAN: "gold" is not one of free/);
    // A built-in name in other letters is a typo, said as one.
    expect(() => resolveSettings({ env: { QUOTELAKE_PLAN: 'Basic' } })).toThrow('QUOTELAKE_PLAN: "Basic" is not one of free, basic, premium, professional, all-hk, all-cn, all-us (did you mean "basic"?)');
    expect(() => resolveSettings({ flags: { plan: 'x' as never } })).toThrow(/^--plan: "x"/);
    expect(() => resolveSettings({ flags: { plan: 'profesional' as never } })).toThrow('--plan: "profesional" is not one of free, basic, premium, professional, all-hk, all-cn, all-us (did you mean "professional"?)');
  });

  it('a custom plan name needs a plans file (whose content the CLI checks); the file comes from a flag, the environment or the pipeline', () => {
    expect(() => resolveSettings({ env: { QUOTELAKE_PLAN: 'enterprise' } })).toThrow(
      /^QUOTELAKE_PLAN: "enterprise" is not one of .* \(a custom plan needs a plans file: --plans-file, QUOTELAKE_PLANS_FILE or service\.plansFile\)$/,
    );
    const byEnv = resolveSettings({ env: { QUOTELAKE_PLAN: 'enterprise', QUOTELAKE_PLANS_FILE: 'plans.yaml' } });
    expect(byEnv.settings).toMatchObject({ plan: 'enterprise', plansFile: 'plans.yaml' });
    expect(byEnv.origin).toMatchObject({ plan: 'env', plansFile: 'env' });
    const byFile = resolveSettings({ flags: { plansFile: 'flag.yaml' }, file: { plan: 'replay', plansFile: '/p/plans.yaml' } });
    expect(byFile.settings).toMatchObject({ plan: 'replay', plansFile: 'flag.yaml' });
  });
  it('an s3:// output keeps its state in the lake, under _quotelake/state (a folder output: <output>/.state)', () => {
    expect(resolveSettings({ flags: { outputDir: 's3://lake/prod/quotes/' } }).settings.stateDir).toBe('s3://lake/prod/quotes/_quotelake/state');
    expect(resolveSettings({ flags: { outputDir: 's3://lake' } }).settings.stateDir).toBe('s3://lake/_quotelake/state');
    expect(resolveSettings({ flags: { outputDir: 'out/' } }).settings.stateDir).toBe('out/.state');
    expect(resolveSettings({ flags: { outputDir: 's3://lake/p', stateDir: '/var/lib/ql' } }).settings.stateDir).toBe('/var/lib/ql');
  });
});
