/**
 * Where an S3 lake lives (`s3://bucket/prefix/`) and the one way a lake key becomes an object key.
 * S3 normalises nothing: `a//b`, `a/./b` and `a/../b` are three distinct objects that some readers
 * (Spark, DuckDB globs) would resolve differently, so both the prefix and every key are refused
 * unless each segment is a plain name. The checks are pure, so nothing unsanitised reaches a request.
 */
import { PathOutsideRootError } from '../../core/errors.js';
import { MAX_S3_KEY_BYTES, objectKeyProblem, s3Root, type S3Location } from '../../core/s3-url.js';

export { bucketProblem, MAX_S3_KEY_BYTES, objectKeyProblem, parseS3Url, s3Root, type S3Location } from '../../core/s3-url.js';

/** The object key of a lake key, refused (PathOutsideRootError) unless every segment is a plain name. */
export function objectKey(location: S3Location, key: string): string {
  const problem = objectKeyProblem(key);
  if (problem !== undefined) throw new PathOutsideRootError('lake key', key, s3Root(location), problem);
  const full = location.prefix + key;
  if (Buffer.byteLength(full, 'utf8') > MAX_S3_KEY_BYTES) {
    throw new PathOutsideRootError('lake key', key, s3Root(location), `makes an object key longer than ${MAX_S3_KEY_BYTES} bytes`);
  }
  return full;
}

/** The object-key prefix of a lake prefix ('' for the whole lake, else ending in '/'). */
export function objectPrefix(location: S3Location, prefix: string): string {
  if (prefix === '') return location.prefix;
  if (!prefix.endsWith('/')) throw new PathOutsideRootError('lake prefix', prefix, s3Root(location), 'must end with /');
  return `${objectKey(location, prefix.slice(0, -1))}/`;
}

/** Reserved characters a path may carry as they are: left unencoded, so a store that decodes the copy source with decodeURI (s3rver) reads the same key as AWS. */
const PATH_SAFE: Readonly<Record<string, string>> = { '%3D': '=', '%3A': ':', '%40': '@', '%2C': ',', '%3B': ';', '%24': '$', '%26': '&' };

/**
 * `x-amz-copy-source`: bucket and key, each segment URL-encoded as S3 requires (a `%` in a partition
 * value becomes `%25`, so it stays itself); `+`, `?` and `#` are always encoded.
 */
export function copySource(bucket: string, objectKeyValue: string): string {
  const segment = (s: string): string => encodeURIComponent(s).replace(/%(3D|3A|40|2C|3B|24|26)/g, (m) => PATH_SAFE[m]!);
  return `${bucket}/${objectKeyValue.split('/').map(segment).join('/')}`;
}
