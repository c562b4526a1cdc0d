// Runs s3rver in its own process (see s3-server.ts): argv = folder, bucket. Prints {"port":n} once listening.
import { createRequire } from 'node:module';

const S3rver = createRequire(import.meta.url)('s3rver');
const [directory, bucket] = process.argv.slice(2);
const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
const { port } = await server.run();
process.stdout.write(`${JSON.stringify({ port })}\n`);
process.on('SIGTERM', () => server.close().then(() => process.exit(0)));
