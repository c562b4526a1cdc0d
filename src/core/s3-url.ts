/**
 * An S3 URL (`s3://bucket/prefix/`), checked without I/O: here in core so the pipeline schema (which
 * imports only core) refuses a bad `outputDir` with its file:line:col, and the lake's S3 backend
 * (src/lake/storage/s3-location.ts, which re-exports these) parses the same way. S3 normalises
 * nothing: `a//b`, `a/./b` and `a/../b` are three distinct objects that some readers would resolve
 * differently, so both the prefix and every key are refused unless each segment is a plain name.
 */
import { pathProblem } from './confine-path.js';
import { controlCharacterProblem } from './control-characters.js';
import { S3LocationError } from './errors.js';
import { checkpointLakeKey, LAKE_KEY_RESERVE_BYTES } from './lake-key-reserve.js';

/** True when an output root names an object store rather than a folder. */
export function isS3Url(where: string): boolean {
  return where.startsWith('s3://');
}

/** A scheme and `://` at the start: what a URL looks like, so nobody means it as a folder's name. */
const URL_LIKE = /^([A-Za-z][A-Za-z0-9+.-]+):\/\//;

/** `s3:` without its `//` (`s3:/bucket/x`, `s3:bucket/x`): a slip of the keyboard, not a folder named `s3:`. */
const S3_SLASH_MISSING = /^s3:(?!\/\/)/i;

/**
 * Why an output root written as a URL that is not `s3://` cannot be one (`gs://b/x`, `https://...`,
 * `S3://b/x` in capitals, `s3:/b/x` short of a slash), said after the value; undefined for anything
 * else. Taken as a path, it would be a local folder named `gs:` or `s3:`, and a scheduled export
 * would fill the local disk with exit 0.
 */
export function foreignUrlProblem(where: string): string | undefined {
  // ` s3://b/x` or `s3://b/x ` (a blank pasted with it): a folder named ` s3:`, or another prefix.
  const trimmed = where.trim();
  if (trimmed !== where && (URL_LIKE.test(trimmed) || S3_SLASH_MISSING.test(trimmed))) return 'has blanks around it: write the URL without them';
  if (S3_SLASH_MISSING.test(where)) return 'is not an S3 URL (one or both slashes after s3: are missing): write s3://bucket/prefix';
  const scheme = URL_LIKE.exec(where)?.[1];
  if (scheme === undefined || isS3Url(where)) return undefined;
  if (scheme.toLowerCase() === 's3') return 'has its scheme in capitals: write s3://';
  return 'is neither a folder nor s3://bucket/prefix (any S3-compatible store, with --s3-endpoint)';
}

/**
 * Why `url` is not a usable S3 location, or undefined when it is: the problem alone, since the
 * pipeline's message names the value already (shown once, with any credentials masked).
 */
export function s3UrlProblem(url: string): string | undefined {
  try {
    parseS3Url(url);
    return undefined;
  } catch (error) {
    return error instanceof S3LocationError ? error.problem : String(error);
  }
}

export interface S3Location {
  readonly bucket: string;
  /** '' or a key prefix ending in '/' (`lake/prod/`). */
  readonly prefix: string;
}

/** S3's limit on a whole object key, in UTF-8 bytes. */
export const MAX_S3_KEY_BYTES = 1024;

/** Why one `/`-separated key (or prefix without its trailing `/`) is not a plain object name. */
export function objectKeyProblem(key: string): string | undefined {
  // `s3://bucket//x`: a doubled slash, which "is absolute" (the path guard's word) would not explain.
  if (key.startsWith('/')) return 'has an empty segment (// or a leading or trailing /)';
  const base = pathProblem(key); // empty, NUL, backslash, absolute, over-long segment, escaping
  if (base !== undefined) return base;
  const control = controlCharacterProblem(key);
  if (control !== undefined) return control;
  for (const segment of key.split('/')) {
    if (segment === '') return 'has an empty segment (// or a leading or trailing /)';
    if (segment === '.' || segment === '..') return `has a "${segment}" segment (object stores do not resolve them)`;
  }
  return undefined;
}

/**
 * Bucket naming rules of S3 (general purpose buckets): 3-63 characters of lowercase letters, digits,
 * dots and hyphens, starting and ending with a letter or digit, no `..`, not an IP address, none of
 * the reserved prefixes and suffixes.
 */
export function bucketProblem(bucket: string): string | undefined {
  if (bucket.length < 3 || bucket.length > 63) return 'a bucket name has 3 to 63 characters';
  if (!/^[a-z0-9][a-z0-9.-]*[a-z0-9]$/.test(bucket)) return 'a bucket name has only lowercase letters, digits, dots and hyphens, and starts and ends with a letter or digit';
  if (bucket.includes('..')) return 'a bucket name has no two dots in a row';
  if (/^\d+\.\d+\.\d+\.\d+$/.test(bucket)) return 'a bucket name is not an IP address';
  if (/^(xn--|sthree-|amzn-s3-demo-)/.test(bucket)) return 'a bucket name cannot start with xn--, sthree- or amzn-s3-demo-';
  if (/(-s3alias|--ol-s3|\.mrap|--x-s3)$/.test(bucket)) return 'a bucket name cannot end with -s3alias, --ol-s3, .mrap or --x-s3';
  return undefined;
}

/** The longest prefix (without its trailing `/`) under which every key of the lake fits in an object key. */
export const MAX_S3_PREFIX_BYTES = MAX_S3_KEY_BYTES - LAKE_KEY_RESERVE_BYTES - 1;

/**
 * Why a prefix leaves too little of S3's 1024 bytes for the lake's own keys, or undefined: refused
 * here, before any request, because every run would fail the same way at its first write.
 */
function prefixLengthProblem(prefix: string): string | undefined {
  const bytes = Buffer.byteLength(prefix, 'utf8');
  if (bytes <= MAX_S3_PREFIX_BYTES) return undefined;
  const left = MAX_S3_KEY_BYTES - bytes - 1;
  return (
    `the prefix is ${bytes} bytes long: an object key has at most ${MAX_S3_KEY_BYTES} bytes, which leaves ${left} for the lake's own keys, ` +
    `and they need up to ${LAKE_KEY_RESERVE_BYTES}; write a prefix of at most ${MAX_S3_PREFIX_BYTES} bytes (${bytes - MAX_S3_PREFIX_BYTES} fewer)`
  );
}

/**
 * Why a pipeline's checkpoint key does not fit under the prefix of `url` (its name sets its length),
 * or undefined: asked before any request, as the prefix's own length is.
 */
export function checkpointKeyProblem(url: string, pipeline: string): string | undefined {
  const { prefix } = parseS3Url(url);
  const bytes = Buffer.byteLength(prefix + checkpointLakeKey(pipeline), 'utf8');
  if (bytes <= MAX_S3_KEY_BYTES) return undefined;
  return (
    `its checkpoint ${checkpointLakeKey(pipeline)} under ${url.length > 60 ? `${url.slice(0, 60)}…` : url} makes an object key of ${bytes} bytes, and S3 allows ${MAX_S3_KEY_BYTES}: ` +
    `shorten the prefix or the pipeline's name by ${bytes - MAX_S3_KEY_BYTES} bytes`
  );
}

/** `s3://bucket`, `s3://bucket/`, `s3://bucket/a/b` or `s3://bucket/a/b/` → bucket and prefix (`a/b/`). */
export function parseS3Url(url: string): S3Location {
  if (url.trim() !== url) throw new S3LocationError(JSON.stringify(url), 'has blanks around it: write the URL without them');
  const scheme = 's3://';
  if (!url.startsWith(scheme)) throw new S3LocationError(JSON.stringify(url.slice(0, 80)), 'an S3 location starts with s3:// (s3://bucket/prefix)');
  const rest = url.slice(scheme.length);
  const slash = rest.indexOf('/');
  const bucket = slash === -1 ? rest : rest.slice(0, slash);
  // Never echo what looks like credentials (s3://KEY:SECRET@bucket): name the problem only.
  if (bucket.includes('@') || bucket.includes(':')) {
    throw new S3LocationError('s3://…', 'the bucket part must be a bare bucket name: credentials and ports do not belong in the URL (credentials come from the AWS chain, an endpoint from --s3-endpoint or AWS_ENDPOINT_URL)');
  }
  const bucketIssue = bucketProblem(bucket);
  if (bucketIssue !== undefined) throw new S3LocationError(`s3://${bucket}`, bucketIssue);
  let prefix = slash === -1 ? '' : rest.slice(slash + 1);
  if (prefix.endsWith('/')) prefix = prefix.slice(0, -1);
  if (prefix !== '') {
    if (/[?#]/.test(prefix)) throw new S3LocationError(url, 'a prefix with ? or # is refused (an S3 URL has no query or fragment)');
    const issue = objectKeyProblem(prefix);
    if (issue !== undefined) throw new S3LocationError(url, `the prefix ${issue}`);
    const tooLong = prefixLengthProblem(prefix);
    if (tooLong !== undefined) throw new S3LocationError(`${url.slice(0, 60)}…`, tooLong);
  }
  return { bucket, prefix: prefix === '' ? '' : `${prefix}/` };
}

/** The location as a URL for messages: `s3://bucket/prefix` (never carries credentials). */
export function s3Root(location: S3Location): string {
  return `s3://${location.bucket}${location.prefix === '' ? '' : `/${location.prefix.slice(0, -1)}`}`;
}

