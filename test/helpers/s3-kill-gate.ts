/**
 * A test S3 server behind a gate that kills a CLI the moment it sends a chosen PUT (a manifest, a
 * Delta version): the data files and the commit journal are in the store, the commit is not. The
 * dead run's lease is then made expired, as a lease's length later, so the next command takes it
 * over without the test waiting for it.
 */
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll } from 'vitest';
import { useS3Server } from './s3-server.js';
import { startS3Gate, type S3Gate } from './s3-gate.js';

export interface S3KillGate {
  readonly server: ReturnType<typeof useS3Server>;
  /** The endpoint to give the CLI (`--s3-endpoint`). */
  endpoint(): string;
  /** Kill with `kill` when a PUT whose path matches `killAt` is sent (once; the PUT never lands). */
  arm(killAt: RegExp, kill: () => void): void;
  /** The lease a killed run left under `prefix`, rewritten as expired. */
  expireLease(prefix: string): Promise<void>;
}

export function useS3KillGate(): S3KillGate {
  const server = useS3Server();
  let gate: S3Gate | undefined;
  let armed: { killAt: RegExp; kill: () => void } | undefined;
  beforeAll(async () => {
    gate = await startS3Gate(server().endpoint, (req, res) => {
      if (armed === undefined || req.method !== 'PUT' || !armed.killAt.test(req.url ?? '')) return false;
      armed.kill();
      armed = undefined;
      res.destroy();
      return true;
    });
  });
  afterAll(() => gate?.close());
  return {
    server,
    endpoint: () => gate!.endpoint,
    arm: (killAt, kill) => (armed = { killAt, kill }),
    async expireLease(prefix) {
      const client = server().client();
      const key = `${prefix}/_quotelake/lock`;
      const lease = JSON.parse(await (await client.send(new GetObjectCommand({ Bucket: server().bucket, Key: key }))).Body!.transformToString()) as Record<string, unknown>;
      const past = new Date(Date.now() - 1000).toISOString();
      await client.send(new PutObjectCommand({ Bucket: server().bucket, Key: key, Body: JSON.stringify({ ...lease, renewedAt: past, expiresAt: past }) }));
    },
  };
}
