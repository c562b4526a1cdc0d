// Runs s3rver in its own process (see s3-server.ts): argv = folder, bucket. Prints {"port":n} once listening.
import { createHash } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

const require = createRequire(import.meta.url);
const S3rver = require('s3rver');

// s3rver writes an object's file while its body arrives, so a client killed in the middle of a PUT
// leaves a truncated object (an empty commit in a Delta log, say), which S3 never does: a PUT stores
// the whole body or nothing. The crash tests kill clients at any moment, so this server keeps an
// object only once all of its body came, and publishes it by a rename.
const FilesystemStore = require('s3rver/lib/stores/filesystem');
let incoming = 0;
FilesystemStore.prototype.putObject = async function putWholeObject(object) {
  let content = object.content;
  if (!Buffer.isBuffer(content)) {
    const declared = Number(content.headers?.['content-length']);
    const chunks = [];
    for await (const chunk of content) chunks.push(chunk); // rejects when the client goes away
    content = Buffer.concat(chunks);
    if (Number.isFinite(declared) && content.length !== declared) throw new Error(`a body of ${content.length} bytes where ${declared} were declared`);
  }
  const objectPath = this.getResourcePath(object.bucket, object.key, 'object');
  await mkdir(dirname(objectPath), { recursive: true });
  const temp = `${objectPath}.incoming-${++incoming}`;
  await writeFile(temp, content);
  await rename(temp, objectPath);
  const md5 = createHash('md5').update(content).digest('hex');
  await this.putMetadata(object.bucket, object.key, object.metadata, md5);
  return { size: content.length, md5 };
};

const [directory, bucket] = process.argv.slice(2);
const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
const { port } = await server.run();
process.stdout.write(`${JSON.stringify({ port })}\n`);
process.on('SIGTERM', () => server.close().then(() => process.exit(0)));
