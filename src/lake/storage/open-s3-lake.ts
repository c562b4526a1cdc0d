/**
 * An `s3://bucket/prefix` lake opened for runs and readers: its S3 client, its storage, and close()
 * to release the client's sockets. The one way both the CLI and a program open an S3 output.
 *
 * Credentials come from the options or else the SDK's default chain; they are never stored or
 * logged. Region and endpoint are the options', else those of `env` (the CLI passes the process
 * environment; a program passes nothing and gets the SDK's own defaults for the region).
 * The AWS SDK loads at the first call, never at import: a program that writes to folders never pays for it.
 */
import type { LakeStorage } from './lake-storage.js';
import type { S3ClientOptions } from './s3-client.js';
import { parseS3Url } from './s3-location.js';
import type { S3StorageOptions } from './s3-storage.js';

export interface S3LakeOptions extends S3ClientOptions, S3StorageOptions {
  /** Where `AWS_REGION`, `AWS_DEFAULT_REGION`, `AWS_ENDPOINT_URL_S3` and `AWS_ENDPOINT_URL` are read when the options leave them out. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export interface OpenedS3Lake {
  /** For RunOptions.storage and for any reader that takes a lake (coverageOfOutput, ...). */
  readonly storage: LakeStorage;
  /** Releases the client's sockets; call it once the runs and reads are done. */
  close(): void;
}

export async function openS3Lake(url: string, options: S3LakeOptions = {}): Promise<OpenedS3Lake> {
  // The URL first: a bad one is an S3LocationError before any client exists.
  const location = parseS3Url(url);
  const [{ s3ClientFor, s3Endpoint }, { S3Storage }] = await Promise.all([import('./s3-client.js'), import('./s3-storage.js')]);
  const client = s3ClientFor(options, options.env ?? {});
  const endpoint = s3Endpoint(options, options.env ?? {});
  return { storage: new S3Storage(client, location, { ...options, endpoint }), close: () => client.destroy() };
}
