/** Where the editor directive of a file `init` writes points: relative inside the installing project, from any folder of it. */
import { describe, expect, it } from 'vitest';
import { schemaDirectivePath } from '../../src/cli/actions/init.js';

const INSTALLED = '/home/me/proj/node_modules/quotelake/pipeline.schema.json';

describe('init schema directive', () => {
  it('is relative to the written file when the command runs anywhere in the project that installed quotelake', () => {
    expect(schemaDirectivePath(INSTALLED, '/home/me/proj', '/home/me/proj/pipelines/a.yaml')).toBe('../node_modules/quotelake/pipeline.schema.json');
    // From a subfolder (npx finds the package up the tree): the same project, so still relative.
    expect(schemaDirectivePath(INSTALLED, '/home/me/proj/sub', '/home/me/proj/pipelines/a.yaml')).toBe('../node_modules/quotelake/pipeline.schema.json');
    expect(schemaDirectivePath(INSTALLED, '/home/me/proj/sub', '/home/me/proj/sub/pipelines/a.yaml')).toBe('../../node_modules/quotelake/pipeline.schema.json');
    // pnpm's store sits under the project's node_modules too.
    expect(schemaDirectivePath('/home/me/proj/node_modules/.pnpm/quotelake@0.1.0/node_modules/quotelake/pipeline.schema.json', '/home/me/proj', '/home/me/proj/pipelines/a.yaml')).toBe(
      '../node_modules/.pnpm/quotelake@0.1.0/node_modules/quotelake/pipeline.schema.json',
    );
  });

  it('is absolute from outside the project, and for a global install', () => {
    expect(schemaDirectivePath(INSTALLED, '/home/me/other', '/home/me/other/pipelines/a.yaml')).toBe(INSTALLED);
    expect(schemaDirectivePath(INSTALLED, '/home/me', '/home/me/pipelines/a.yaml')).toBe(INSTALLED);
    const global = '/usr/lib/node_modules/quotelake/pipeline.schema.json';
    expect(schemaDirectivePath(global, '/home/me/proj', '/home/me/proj/pipelines/a.yaml')).toBe(global);
  });

  it('a checkout of quotelake itself is its own project', () => {
    expect(schemaDirectivePath('/src/quotelake/pipeline.schema.json', '/src/quotelake', '/src/quotelake/pipelines/a.yaml')).toBe('../pipeline.schema.json');
    expect(schemaDirectivePath('/src/quotelake/pipeline.schema.json', '/src/quotelake/test', '/src/quotelake/pipelines/a.yaml')).toBe('../pipeline.schema.json');
  });
});
