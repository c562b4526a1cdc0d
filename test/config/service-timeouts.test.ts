/**
 * `service.timeouts`: request timeouts (and the shared limiter's lease) from a pipeline file:
 * validated with file:line:column like every config error, unset ones left to the client's defaults.
 */
import { describe, expect, it } from 'vitest';
import { parsePipelineYaml, PipelineConfigError } from '../../src/config/parse-pipeline.js';
import { setSettings } from '../../src/config/set-settings.js';
import { testRegistry } from '../helpers/test-components.js';

const registry = testRegistry({});
const file = 'pipelines/x.yaml';
const base = 'name: count-it\nsource:\n  type: counter\n  batches: 2\n  rowsPerBatch: 3\nsink:\n  type: memory\nservice:\n  timeouts:\n';

function messageOf(text: string): string {
  try {
    parsePipelineYaml(text, { registry, file });
  } catch (e) {
    expect(e).toBeInstanceOf(PipelineConfigError);
    return (e as Error).message;
  }
  throw new Error('expected a config error');
}

describe('service.timeouts', () => {
  it('takes connectMs, headersMs and bodyMs in milliseconds', () => {
    const p = parsePipelineYaml(`${base}    connectMs: 500\n    headersMs: 1500\n    bodyMs: 2000\n`, { registry, file });
    expect(p.service).toEqual({ timeouts: { connectMs: 500, headersMs: 1500, bodyMs: 2000 } });
  });

  it('any of them may be left out (the client keeps its default for it)', () => {
    const p = parsePipelineYaml(`${base}    headersMs: 1500\n`, { registry, file });
    expect(setSettings(p.service?.timeouts)).toEqual({ headersMs: 1500 });
    expect(setSettings(undefined)).toEqual({});
    // An explicit undefined (TypeScript) never replaces a default.
    expect(setSettings({ connectMs: undefined, bodyMs: 900 })).toEqual({ bodyMs: 900 });
  });

  it('refuses bad values at their line and column', () => {
    expect(messageOf(`${base}    headersMs: 50\n`)).toBe('pipelines/x.yaml:10:16: service.timeouts.headersMs: 50 must be at least 100');
    expect(messageOf(`${base}    bodyMs: 3600001\n`)).toBe('pipelines/x.yaml:10:13: service.timeouts.bodyMs: 3600001 must be at most 3600000');
    expect(messageOf(`${base}    connectMs: 1.5\n`)).toMatch(/^pipelines\/x\.yaml:10:16: service\.timeouts\.connectMs: expected a whole number, got number 1\.5$/);
    expect(messageOf(`${base}    connectMs: "5s"\n`)).toBe('pipelines/x.yaml:10:16: service.timeouts.connectMs: expected a number, got string "5s"');
    expect(messageOf(`${base}    headerMs: 1000\n`)).toBe('pipelines/x.yaml:10:5: service.timeouts: unknown key "headerMs"; did you mean "headersMs"?');
  });
});
