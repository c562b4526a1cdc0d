/**
 * A path under an output root as `state show` prints it. A folder is joined as a path; an
 * `s3://bucket/prefix` root is a URL, which path.join would fold to `s3:/bucket/prefix`.
 */
import { join } from 'node:path';
import { isS3Url } from '../../core/s3-url.js';

export function outputPath(root: string, ...parts: string[]): string {
  if (!isS3Url(root)) return join(root, ...parts);
  return [root.replace(/\/+$/, ''), ...parts.map((p) => p.replace(/^\/+|\/+$/g, ''))].filter((p) => p !== '').join('/');
}
