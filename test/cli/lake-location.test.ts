/** Where a command's state and quota files are for a local and an S3 output (I5, and the XDG rule). */
import { describe, expect, it } from 'vitest';
import { commandLake, commandState, quotaStateDir, xdgStateDir } from '../../src/cli/lake-location.js';

describe('state and quota folders of a command', () => {
  it('a local output: <output>/.state, or --state-dir', async () => {
    const lake = await commandLake('out/', {});
    expect(lake.remote).toBe(false);
    expect(commandState(lake, undefined)).toMatchObject({ prefix: '', dir: 'out/.state' });
    expect(commandState(lake, '/srv/st')).toMatchObject({ prefix: '', dir: '/srv/st' });
    expect(quotaStateDir('out/', undefined, {})).toBe('out/.state');
    expect(quotaStateDir('out', '/srv/st', {})).toBe('/srv/st');
  });

  it('an S3 output: state in the lake, quota in the XDG state folder', async () => {
    const lake = await commandLake('s3://lake-bucket/prod', { AWS_REGION: 'us-east-1' });
    try {
      expect(lake.remote).toBe(true);
      expect(commandState(lake, undefined)).toMatchObject({ prefix: '_quotelake/state/', where: 's3://lake-bucket/prod/_quotelake/state' });
      // The settings' default for an S3 output names the lake's own state prefix.
      expect(commandState(lake, 's3://lake-bucket/prod/_quotelake/state').prefix).toBe('_quotelake/state/');
      expect(commandState(lake, '/var/lib/ql')).toMatchObject({ prefix: '', dir: '/var/lib/ql' });
      expect(() => commandState(lake, 's3://other-bucket/state')).toThrow(/state is kept in the lake/);
    } finally {
      lake.close();
    }
    expect(quotaStateDir('s3://lake-bucket/prod', undefined, { XDG_STATE_HOME: '/x/state', HOME: '/home/u' })).toBe('/x/state/quotelake');
    expect(quotaStateDir('s3://lake-bucket/prod', 's3://lake-bucket/prod/_quotelake/state', { HOME: '/home/u' })).toBe('/home/u/.local/state/quotelake');
    // XDG says a relative XDG_STATE_HOME is ignored.
    expect(xdgStateDir({ XDG_STATE_HOME: 'rel', HOME: '/home/u' })).toBe('/home/u/.local/state/quotelake');
  });
});
