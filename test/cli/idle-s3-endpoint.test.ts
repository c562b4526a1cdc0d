/** `--s3-endpoint` is refused only where no output of the command is on S3. */
import { describe, expect, it } from 'vitest';
import { refuseIdleS3Endpoint } from '../../src/cli/idle-s3-endpoint.js';

describe('refuseIdleS3Endpoint', () => {
  it('takes an endpoint when one output of several is s3://, and no endpoint at all', () => {
    expect(() => refuseIdleS3Endpoint('http://minio:9000', ['out', 's3://lake/x'])).not.toThrow();
    expect(() => refuseIdleS3Endpoint(undefined, ['out'])).not.toThrow();
  });

  it('refuses one where every output is a folder, naming each folder once', () => {
    expect(() => refuseIdleS3Endpoint('http://minio:9000', ['out', 'out', 'other'])).toThrow(
      '--s3-endpoint http://minio:9000 is for an s3:// output, and the output is a folder (out, other): it would be ignored',
    );
  });
});
