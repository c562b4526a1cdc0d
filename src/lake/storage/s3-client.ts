/**
 * The one place an S3 client is configured. Credentials always come from the SDK's default chain
 * (environment, shared config and credentials files, SSO, web identity, container and instance
 * roles): quotelake never reads, stores or logs them. Only src/cli reads the process environment,
 * so the variables this file looks at (region, endpoint) arrive as the `env` parameter.
 *
 * Retries: the SDK's `standard` mode, 5 attempts. It retries 5xx, throttling (503 SlowDown) and
 * transient network errors with exponential backoff and jitter, under a retry quota that stops a
 * retry storm when a store is down. Not `adaptive`: AWS documents it as experimental, and its
 * client-side rate limiter delays even first attempts after throttling, which helps many writers
 * hammering one key, not one exporter writing distinct objects.
 */
import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { S3LocationError } from '../../core/errors.js';

export interface S3ClientOptions {
  /** An S3-compatible store (MinIO, Ceph, R2, a local test server): `http(s)://host[:port]`. */
  readonly endpoint?: string;
  readonly region?: string;
  /** Attempts per request including the first (SDK retries); default 5. */
  readonly maxAttempts?: number;
  /** Explicit credentials (tests, embedding); otherwise the SDK's default chain. */
  readonly credentials?: S3ClientConfig['credentials'];
}

/** The endpoint-less region when none is configured but an S3-compatible endpoint is: most ignore it. */
const ENDPOINT_DEFAULT_REGION = 'us-east-1';

export const DEFAULT_S3_MAX_ATTEMPTS = 5;

const nonEmpty = (v: string | undefined): string | undefined => (v !== undefined && v.trim() !== '' ? v.trim() : undefined);

/** The endpoint to use, checked: an http(s) URL without credentials, path or query. */
export function s3Endpoint(options: S3ClientOptions, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const raw = nonEmpty(options.endpoint) ?? nonEmpty(env.AWS_ENDPOINT_URL_S3) ?? nonEmpty(env.AWS_ENDPOINT_URL);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new S3LocationError('the S3 endpoint', 'is not a URL (expected http://host:port or https://host)');
  }
  if (url.username !== '' || url.password !== '') {
    throw new S3LocationError('the S3 endpoint', 'must not carry credentials (they come from the AWS chain: AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, a profile, a role)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new S3LocationError(url.origin, 'an S3 endpoint is http:// or https://');
  if (url.search !== '' || url.hash !== '') throw new S3LocationError(url.origin, 'an S3 endpoint has no query or fragment');
  // The SDK would put the path before the bucket (`/lake/<bucket>/…`), and the store answer NoSuchBucket.
  if (url.pathname !== '/') throw new S3LocationError(url.href, 'an S3 endpoint has no path: the bucket and prefix go in the s3:// URL (--s3-endpoint http://host:9000 --output s3://bucket/prefix)');
  return url.href.replace(/\/$/, '');
}

/**
 * The region the SDK's default chain finds (the environment, then the active profile of the shared
 * config file), else `fallback`: asked once, at the client's first request.
 */
function profileRegionOr(fallback: string): () => Promise<string> {
  let region: Promise<string> | undefined;
  return () =>
    (region ??= (async () => {
      const chain = new S3Client({});
      try {
        return await chain.config.region();
      } catch {
        return fallback; // "Region is missing": no region anywhere
      } finally {
        chain.destroy();
      }
    })());
}

/**
 * An S3 client for the lake. With a custom endpoint (option, AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL):
 * path-style addressing (`host/bucket/key`: most S3-compatible stores have no per-bucket DNS) and
 * checksums only when an operation requires them (MinIO, Ceph, R2 and older stores refuse the
 * CRC32 trailers the SDK adds by default since 2025).
 */
export function s3ClientFor(options: S3ClientOptions = {}, env: Readonly<Record<string, string | undefined>> = {}): S3Client {
  const endpoint = s3Endpoint(options, env);
  // Undefined lets the SDK read the region of the shared config file (the active profile).
  const region = nonEmpty(options.region) ?? nonEmpty(env.AWS_REGION) ?? nonEmpty(env.AWS_DEFAULT_REGION);
  const config: S3ClientConfig = {
    maxAttempts: options.maxAttempts ?? DEFAULT_S3_MAX_ATTEMPTS,
    retryMode: 'standard',
    // A store that accepts a connection and never answers must not hang a run.
    requestHandler: { connectionTimeout: 10_000, requestTimeout: 120_000 },
  };
  if (region !== undefined) config.region = region;
  // An endpoint and no region in the options or the environment: the profile's region (the SDK's own
  // chain), else the fallback. A store configured with a region (MinIO's, Ceph's) refuses another.
  else if (endpoint !== undefined) config.region = profileRegionOr(ENDPOINT_DEFAULT_REGION);
  if (options.credentials !== undefined) config.credentials = options.credentials;
  if (endpoint !== undefined) {
    config.endpoint = endpoint;
    config.forcePathStyle = true;
    config.requestChecksumCalculation = 'WHEN_REQUIRED';
    config.responseChecksumValidation = 'WHEN_REQUIRED';
  }
  return new S3Client(config);
}
