/**
 * What an SDK error means for the user, as an EnvironmentError with a stable code, the bucket and
 * key it concerns, and the fix. Called after the SDK's own retries are spent, so a 5xx here is a
 * store that stayed down. Messages are built from names and status codes only: an SDK error never
 * carries the credentials, and nothing of the request's headers is copied.
 */
import { redactUrl } from '../../core/redact.js';
import { EnvironmentError, type ErrorStage } from '../../core/errors.js';

interface SdkErrorFields {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  $metadata?: { httpStatusCode?: number };
  $retryable?: unknown;
}

/** The names S3 (and the SDK's credential chain) use for refused or missing credentials. */
const CREDENTIAL_ERRORS = new Set(['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'ExpiredToken', 'TokenRefreshRequired', 'CredentialsProviderError', 'InvalidToken']);
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED']);

/** The operation being done, for the message: `PutObject s3://bucket/key`. */
export interface S3Operation {
  readonly op: string;
  readonly bucket: string;
  readonly key?: string;
  /** The lake's object prefix ('' or ending in '/'): what the credentials need, not the key's folder alone. */
  readonly prefix?: string;
  /** A custom endpoint (an S3-compatible store), named when it cannot be reached; absent for AWS's own. */
  readonly endpoint?: string;
  readonly stage: ErrorStage;
}

function fields(error: unknown): SdkErrorFields {
  return typeof error === 'object' && error !== null ? (error as SdkErrorFields) : {};
}

/** The Node error code of the error or of its causes (the SDK wraps socket errors). */
function networkCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e !== undefined && e !== null && depth < 5; depth++) {
    const code = fields(e).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The SDK's error name (`AccessDenied`, `NoSuchBucket`, `NotFound`...). */
export function s3ErrorName(error: unknown): string {
  const name = fields(error).name;
  return typeof name === 'string' ? name : 'Error';
}

export function s3Status(error: unknown): number | undefined {
  return fields(error).$metadata?.httpStatusCode;
}

/** The answer "no such object" (GetObject: NoSuchKey; HeadObject has no body, so: NotFound / 404). */
export function isNotFound(error: unknown): boolean {
  const name = s3ErrorName(error);
  return name === 'NoSuchKey' || name === 'NotFound' || (s3Status(error) === 404 && name !== 'NoSuchBucket');
}

/**
 * What is kept of an SDK error as the cause: name, message, status, request id, attempts. Not the
 * error itself: its `$response` holds the request, whose Authorization header names the access key.
 */
export function sanitisedCause(error: unknown): Error {
  const f = fields(error);
  const message = typeof f.message === 'string' ? f.message : String(error);
  const cause = new Error(message);
  cause.name = s3ErrorName(error);
  const meta = f.$metadata as { httpStatusCode?: number; requestId?: string; attempts?: number } | undefined;
  const net = networkCode(error);
  return Object.assign(cause, {
    ...(meta === undefined ? {} : { $metadata: { httpStatusCode: meta.httpStatusCode, requestId: meta.requestId, attempts: meta.attempts } }),
    ...(net === undefined ? {} : { code: net }),
  });
}

export function s3Error(error: unknown, where: S3Operation): EnvironmentError {
  const name = s3ErrorName(error);
  const status = s3Status(error);
  const cause = sanitisedCause(error);
  const target = `s3://${where.bucket}${where.key === undefined ? '' : `/${where.key}`}`;
  const what = `${where.op} ${target}`;
  const make = (code: string, message: string, fix: string, retryable: boolean): EnvironmentError =>
    new EnvironmentError(code, `${what}: ${message}`, target, fix, { stage: where.stage, retryable, cause });

  if (name === 'NoSuchBucket') {
    return make('QL_S3_NO_BUCKET', `bucket ${where.bucket} does not exist`, `create bucket ${where.bucket} first, or fix the bucket name in the s3:// URL (and the endpoint, for an S3-compatible store)`, false);
  }
  if (CREDENTIAL_ERRORS.has(name)) {
    return make('QL_S3_CREDENTIALS', `the credentials were refused or not found (${name})`, 'set credentials for the AWS chain: AWS_PROFILE, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, SSO (aws sso login) or an instance/container role; check the clock too (signatures expire)', false);
  }
  // A bare 403 (HeadObject has no body to name it) is a refusal too; an archived object is not.
  if (name === 'AccessDenied' || name === 'AllAccessDisabled' || (status === 403 && name !== 'InvalidObjectState')) {
    // The lake's whole prefix: a grant on this key's folder alone fails at the next key the lake writes.
    const scope = where.prefix !== undefined ? `s3://${where.bucket}/${where.prefix}` : target.replace(/\/[^/]*$/, '/');
    return make('QL_S3_ACCESS_DENIED', `access denied (${name})`, `grant these credentials s3:ListBucket on ${where.bucket} and s3:GetObject, s3:PutObject, s3:DeleteObject on ${scope}*`, false);
  }
  if (typeof fields(error).message === 'string' && /region is missing/i.test(fields(error).message as string)) {
    return make('QL_S3_REGION', 'no AWS region is configured', 'set AWS_REGION (or region in the profile of ~/.aws/config), or give an endpoint for an S3-compatible store', false);
  }
  // The SDK refuses a region that cannot be part of a host name (`us east`, `eu_west_1`) before
  // sending anything: a typo in the command's environment, not an answer of the store.
  const badRegion = typeof fields(error).message === 'string' ? /Region not accepted: region="([^"]*)"/.exec(fields(error).message as string) : null;
  if (badRegion !== null) {
    return make('QL_S3_REGION', `the AWS region ${JSON.stringify(badRegion[1])} is not a region name (lowercase letters, digits and hyphens, e.g. eu-west-1)`, 'fix AWS_REGION, AWS_DEFAULT_REGION or the region of the profile in ~/.aws/config', false);
  }
  if (name === 'PermanentRedirect' || name === 'AuthorizationHeaderMalformed' || status === 301) {
    return make('QL_S3_REGION', `the bucket lives in another region (${name})`, 'set AWS_REGION to the bucket\'s region', false);
  }
  const net = networkCode(error) ?? (name === 'TimeoutError' || name === 'RequestTimeout' ? name : undefined);
  if (net !== undefined) {
    const store = where.endpoint !== undefined ? `the store at ${redactUrl(where.endpoint)}` : 'the store';
    return make('QL_S3_TRANSPORT', `${store} could not be reached (${net})`, 'check the network and the endpoint (--s3-endpoint / AWS_ENDPOINT_URL); running again resumes', true);
  }
  if (status !== undefined && status >= 500) {
    return make('QL_S3_UNAVAILABLE', `the store answered ${status} ${name} after every retry`, 'the store is down or throttling: run again later (it resumes)', true);
  }
  return make('QL_S3_ERROR', `the store answered ${status ?? 'with'} ${name}`, 'see the cause; the object store refused the request', false);
}
