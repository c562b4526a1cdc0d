/**
 * `--s3-endpoint` names the store of an s3:// output; given where every output of the command is a
 * folder it would do nothing, and the user who typed it meant the lake to be on that store: a
 * usage error naming both, not a run into a local folder that looks like a run into the bucket.
 * The environment's AWS_ENDPOINT_URL is ambient (set for other tools too) and is not refused.
 */
import { isS3Url } from '../core/s3-url.js';
import { UsageError } from './usage-error.js';

export function refuseIdleS3Endpoint(endpoint: string | undefined, outputs: readonly string[]): void {
  if (endpoint === undefined || outputs.length === 0 || outputs.some(isS3Url)) return;
  const folders = [...new Set(outputs)].join(', ');
  throw new UsageError(
    `--s3-endpoint ${endpoint} is for an s3:// output, and the output is a folder (${folders}): it would be ignored`,
    'give --output s3://bucket/prefix to write to that store, or drop --s3-endpoint to write to the folder',
  );
}
