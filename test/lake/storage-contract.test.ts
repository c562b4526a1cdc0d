/** The LakeStorage contract against the local file system and against an S3 server on loopback. */
import { beforeEach } from 'vitest';
import type { LakeStorage } from '../../src/lake/storage/lake-storage.js';
import { localStorage } from '../../src/lake/storage/local-storage.js';
import { S3Storage } from '../../src/lake/storage/s3-storage.js';
import { useS3Server } from '../helpers/s3-server.js';
import { tempDir } from '../sinks/helpers.js';
import { storageContract } from './storage-contract.js';

let local: LakeStorage;
let s3: LakeStorage;
const server = useS3Server();
let n = 0;

beforeEach(async () => {
  local = localStorage(await tempDir('ql-contract-'));
  // A fresh prefix per case: one bucket, no case sees another's objects.
  s3 = new S3Storage(server().client(), `s3://${server().bucket}/lake/case-${++n}`);
});

storageContract('local file system', () => ({ storage: local, conditionalCreate: true }));
storageContract('S3 (s3rver)', () => ({ storage: s3, conditionalCreate: false }));
