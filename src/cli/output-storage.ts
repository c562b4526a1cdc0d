/**
 * The storage of an `--output` (or a pipeline's outputDir): nothing for a folder (the lake's local
 * backend is the default everywhere), an S3Storage for `s3://bucket/prefix`. Only here does the
 * process environment reach the S3 client (region, AWS_ENDPOINT_URL[_S3]); credentials stay with
 * the SDK's default chain. The caller closes what it opened, so no socket outlives the command.
 */
import { isS3Url } from '../core/s3-url.js';
import type { LakeStorage } from '../lake/storage/lake-storage.js';
import { openS3Lake } from '../lake/storage/open-s3-lake.js';

export interface OpenedOutput {
  /** Undefined for a local folder. */
  readonly storage: LakeStorage | undefined;
  /** Releases the S3 client's sockets (a no-op for a folder). */
  close(): void;
}

export async function openOutput(output: string, s3Endpoint: string | undefined, env: Readonly<Record<string, string | undefined>>): Promise<OpenedOutput> {
  if (!isS3Url(output)) return { storage: undefined, close: () => undefined };
  // The SDK warns once per process, on stderr, that its releases after January 2027 need Node 22:
  // news about future SDK releases, not about this run, and quotelake supports Node 20 (engines),
  // so on every s3:// command it would be noise between our lines. Set the variable to false to see it.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  // The AWS SDK loads only for an s3:// output: about 0.15 CPU-s that a run into a folder never pays.
  return openS3Lake(output, { ...(s3Endpoint !== undefined ? { endpoint: s3Endpoint } : {}), env });
}
