/** init's help and completion list the registry's source and sink types without loading it: held equal here. */
import { describe, expect, it } from 'vitest';
import { INIT_SINK_TYPES, INIT_SOURCE_TYPES } from '../../src/cli/commands/init.js';
import { checkTypeScriptPipeline, nodeStripsTypes } from '../../src/cli/typescript-support.js';
import { UsageError } from '../../src/cli/usage-error.js';
import { components } from '../../src/components.js';

describe('init types', () => {
  it('are the registry types, in its order', () => {
    expect([...INIT_SOURCE_TYPES]).toEqual(components.filter((d) => d.kind === 'source').map((d) => d.type));
    expect([...INIT_SINK_TYPES]).toEqual(components.filter((d) => d.kind === 'sink').map((d) => d.type));
  });
});

describe('TypeScript pipelines', () => {
  it('reads type stripping from process.features', () => {
    expect(nodeStripsTypes({ typescript: 'strip' })).toBe(true);
    expect(nodeStripsTypes({ typescript: 'transform' })).toBe(true);
    expect(nodeStripsTypes({ typescript: false })).toBe(false);
    expect(nodeStripsTypes({})).toBe(false);
  });

  it('refuses .ts and .mts where Node cannot strip types, with the compiled file to pass', () => {
    expect(() => checkTypeScriptPipeline('p/my.mts', 'v22.5.0', false)).toThrow(UsageError);
    expect(() => checkTypeScriptPipeline('p/my.mts', 'v22.5.0', false)).toThrow(
      'p/my.mts: Node v22.5.0 cannot load a TypeScript pipeline (it has no type stripping): run on Node 22.18 or later (or 23.6+), or compile it first (npx tsc --module esnext --moduleResolution bundler --target es2022 p/my.mts) and pass p/my.mjs, or write it as .yaml',
    );
  });

  it('lets them through where Node strips types, and never stops .js or .yaml', () => {
    expect(() => checkTypeScriptPipeline('my.ts', 'v22.18.0', true)).not.toThrow();
    for (const f of ['my.js', 'my.mjs', 'my.yaml']) expect(() => checkTypeScriptPipeline(f, 'v20.20.0', false)).not.toThrow();
  });
});
