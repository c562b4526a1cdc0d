import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ComponentDefinition } from '../../src/core/definition.js';
import { components } from '../../src/components.js';
import { applySettings, settingsFromPipeline } from '../../src/config/apply-settings.js';
import { validatePipeline } from '../../src/config/parse-pipeline.js';
import { resolveSettings } from '../../src/config/resolve-settings.js';
import { testRegistry } from '../helpers/test-components.js';

const bars: ComponentDefinition = {
  kind: 'source',
  type: 'bars',
  summary: 'test',
  configSchema: z.object({ codes: z.array(z.string()).min(1), since: z.string().optional() }),
  examples: [],
  dataset: () => 'kline',
  emits: 'kline-row',
  create: () => ({ read: async function* () {} }),
};
const registry = [...testRegistry({}), bars, { ...testRegistry({})[2]!, type: 'other-sink' } as ComponentDefinition];

describe('settingsFromPipeline + resolveSettings + applySettings', () => {
  it('flags and environment override the file; the result validates', () => {
    const p = validatePipeline(
      {
        name: 'p',
        service: { plan: 'free', baseUrl: 'http://file:1' },
        source: { type: 'bars', codes: ['BTCUSDT'] },
        sink: { type: 'memory' },
        options: { outputDir: 'lake' },
      },
      { registry },
    );
    const { settings } = resolveSettings({
      flags: { codes: ['ETHUSDT'], since: '2026-01-01T00:00:00Z', format: 'other-sink' },
      env: { QUOTELAKE_PLAN: 'basic' },
      file: settingsFromPipeline(p),
    });
    const applied = validatePipeline(applySettings(p, settings, registry), { registry });
    expect(applied.source).toEqual({ type: 'bars', codes: ['ETHUSDT'], since: '2026-01-01T00:00:00Z' });
    expect(applied.sink).toEqual({ type: 'other-sink' });
    expect(applied.service).toEqual({ plan: 'basic', baseUrl: 'http://file:1' });
    expect(applied.options).toMatchObject({ outputDir: 'lake', stateDir: 'lake/.state' });
  });

  it('--codes keeps only the codesOutsideCatalog entries it names, so the file still validates', () => {
    const p = validatePipeline(
      { name: 'p', source: { type: 'depth-snapshot', codes: ['BTCUSDT', 'NOSUCH'], codesOutsideCatalog: ['NOSUCH'] }, transforms: [{ type: 'parse-decimals' }], sink: { type: 'parquet' } },
      { registry: components },
    );
    const withCodes = (codes: string[]) => validatePipeline(applySettings(p, resolveSettings({ flags: { codes }, file: settingsFromPipeline(p) }).settings, components), { registry: components }).source;
    expect(withCodes(['BTCUSDT'])).toEqual({ type: 'depth-snapshot', codes: ['BTCUSDT'] });
    expect(withCodes(['ETHUSDT', 'NOSUCH'])).toEqual({ type: 'depth-snapshot', codes: ['ETHUSDT', 'NOSUCH'], codesOutsideCatalog: ['NOSUCH'] });
  });

  it('a flag the source type does not have is refused by name', () => {
    const p = validatePipeline({ name: 'p', source: { type: 'counter', batches: 1, rowsPerBatch: 1 }, sink: { type: 'memory' } }, { registry });
    const { settings } = resolveSettings({ flags: { since: '2026-01-01T00:00:00Z' } });
    expect(() => applySettings(p, settings, registry)).toThrow('--since is not supported by source type counter');
  });
});
