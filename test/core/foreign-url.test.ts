/** An output root written as a URL that is not s3://: refused, never taken as a local folder named "gs:". */
import { describe, expect, it } from 'vitest';
import { foreignUrlProblem } from '../../src/core/s3-url.js';

describe('foreignUrlProblem', () => {
  it('refuses URLs of other schemes, and s3 in capitals with the spelling to use', () => {
    for (const url of ['gs://bucket/lake', 'https://host/lake', 'file:///tmp/lake', 'az://container/x', 'hdfs://nn/x']) {
      expect(foreignUrlProblem(url), url).toBe('is neither a folder nor s3://bucket/prefix (any S3-compatible store, with --s3-endpoint)');
    }
    expect(foreignUrlProblem('S3://bucket/lake')).toBe('has its scheme in capitals: write s3://');
    expect(foreignUrlProblem('s3://bucket/lake')).toBeUndefined();
  });

  it('refuses s3: short of a slash, which would otherwise be a local folder named "s3:"', () => {
    for (const url of ['s3:/bucket/lake', 's3:bucket/lake', 'S3:/bucket/lake', 's3:']) {
      expect(foreignUrlProblem(url), url).toBe('is not an S3 URL (one or both slashes after s3: are missing): write s3://bucket/prefix');
    }
  });

  it('refuses a URL with blanks around it (pasted with it), which would name a folder " s3:" or another prefix', () => {
    for (const url of [' s3://bucket/lake', 's3://bucket/lake ', '\ts3:/bucket/lake', ' gs://bucket/lake']) {
      expect(foreignUrlProblem(url), url).toBe('has blanks around it: write the URL without them');
    }
    expect(foreignUrlProblem(' output ')).toBeUndefined();
  });

  it('leaves folders alone, whatever they contain', () => {
    for (const path of ['output', './output', '/srv/lake', 'lakes/x://y', 'C:/lake', 'C:\\\\lake', 'a:b']) {
      expect(foreignUrlProblem(path), path).toBeUndefined();
    }
  });
});
