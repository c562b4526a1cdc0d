// The lake on an S3-compatible store: s3rver on loopback (a child process, as the tests start it),
// so the figures measure quotelake's side and a local server, not a network or AWS.
//
// 1. Upload MB/s: a 64 MiB staged file streamed from disk to one key (S3Storage.putStream: a
//    multipart upload, 8 MiB parts, 4 in flight), median of 3.
// 2. Commit latency: a Parquet sink on S3 takes one 500-bar page of a new partition and commits,
//    21 times; the median commit time, and the median S3 requests one commit sends (counted by a
//    middleware on the client: the cost per commit a bill shows).
// 3. Rows/s of the same sink workload (parse-decimals → Parquet, 200k 1m bars of 100 codes) into a
//    folder and into S3: what moving the lake to a store costs end to end.
// 4. Rows/s of a backfill through the built CLI (the shipped kline-backfill pipeline, 7 days, the
//    embedded emulator with an unthrottled replay plan on both sides) into a folder and into S3.
// QUOTELAKE_BENCH_S3_ROWS changes the rows of 3.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { PassThrough } from 'node:stream';
import { batches, context, pageBatch, pages } from './sink-workload.mjs';
import { parseDecimals } from '../dist/transforms/parse-decimals/index.js';
import { parquetSink } from '../dist/sinks/parquet/index.js';
import { s3ClientFor } from '../dist/lake/storage/s3-client.js';
import { writeReplayPlans } from './backfill/pipeline-files.mjs';
import { S3Storage } from '../dist/lake/storage/s3-storage.js';

// The SDK's notice that its 2027 releases need Node 22 is not a figure (the CLI keeps it off too).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const SERVER_MAIN = fileURLToPath(new URL('../test/helpers/s3-server-main.mjs', import.meta.url));
const BUCKET = 'bench';
const ROWS = Number(process.env.QUOTELAKE_BENCH_S3_ROWS ?? 200_000);
const MiB = 1024 * 1024;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function startServer(directory) {
  // --openssl-legacy-provider: s3rver's listing token needs DES (see test/helpers/s3-server.ts).
  const child = spawn(process.execPath, ['--openssl-legacy-provider', SERVER_MAIN, directory, BUCKET], { stdio: ['ignore', 'pipe', 'inherit'] });
  for await (const line of createInterface({ input: child.stdout })) {
    const { port } = JSON.parse(line);
    return { child, endpoint: `http://127.0.0.1:${port}` };
  }
  throw new Error('s3rver did not start');
}

/** A client whose requests are counted (every HTTP request the SDK sends, retries included). */
function countingClient(endpoint) {
  const client = s3ClientFor({ endpoint, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  const counter = { requests: 0 };
  client.middlewareStack.add((next, context) => async (args) => {
    counter.requests++;
    if (process.env.QUOTELAKE_BENCH_S3_TRACE) process.stderr.write(`${context.commandName}\n`);
    return next(args);
  }, { step: 'finalizeRequest', name: 'benchRequestCounter' });
  return { client, counter };
}

function transformAndSink(outputDir, storage) {
  const env = { outputDir, stateDir: `${tmpdir()}/ql-bench-state`, stdout: new PassThrough(), dataset: 'kline', ...(storage ? { storage } : {}) };
  return {
    transform: parseDecimals.create(parseDecimals.configSchema.parse({}), env),
    sink: parquetSink.create(parquetSink.configSchema.parse({}), env),
  };
}

async function uploadMBps(storage, scratch) {
  const file = join(scratch, 'upload.bin');
  const body = Buffer.alloc(64 * MiB);
  // Not zeros: a store or proxy that compresses would flatter the figure.
  for (let i = 0; i < body.length; i += 4) body.writeUInt32LE((i * 2654435761) >>> 0, i);
  await writeFile(file, body);
  const rates = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    await storage.putStream(`upload/file-${i}.bin`, createReadStream(file));
    rates.push(body.length / MiB / ((performance.now() - started) / 1000));
  }
  await storage.deletePrefix('upload/');
  return median(rates);
}

async function commitLatency(storage, counter) {
  const { transform, sink } = transformAndSink('s3://bench/commits', storage);
  const ctx = context('commits');
  const times = [];
  const requests = [];
  // One page per commit, each of another code: a new partition file every time, as a minute update does.
  let seq = 0;
  for (const page of pages(100 * 500)) {
    if (seq > 20) break;
    const batch = pageBatch(page, ++seq);
    await sink.write(transform.apply(batch, ctx).output, ctx);
    await sink.flush(ctx);
    const before = counter.requests;
    const started = performance.now();
    await sink.commit(ctx);
    times.push(performance.now() - started);
    requests.push(counter.requests - before);
  }
  await sink.close();
  // The first commit creates the manifest; the rest are the steady state.
  return { ms: median(times.slice(1)), requests: median(requests.slice(1)) };
}

async function rowsPerSecond(outputDir, storage) {
  const { transform, sink } = transformAndSink(outputDir, storage);
  const ctx = context('rows');
  const started = performance.now();
  for (const batch of batches(ROWS)) await sink.write(transform.apply(batch, ctx).output, ctx);
  const receipt = await sink.commit(ctx);
  await sink.close();
  return receipt.rows / ((performance.now() - started) / 1000);
}

const CLI = fileURLToPath(new URL('../dist/cli/quotelake.js', import.meta.url));

/** One `quotelake run kline-backfill` into `output`; rows written per wall second of the process. */
async function cliBackfill(output, endpoint, plansFile) {
  const args = [CLI, 'run', 'kline-backfill', '--since', '7d', '--clock', '2026-11-20T00:00:00Z', '--plans-file', plansFile, '--plan', 'replay', '--output', output, '--json', '--quiet'];
  if (output.startsWith('s3://')) args.push('--s3-endpoint', endpoint);
  const env = { ...process.env, AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };
  const started = performance.now();
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const [code] = await once(child, 'exit');
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`quotelake run into ${output} exited ${code}`);
  const rows = JSON.parse(out).runs[0].rows.kline.written;
  return { rows, perSecond: rows / seconds };
}

export async function run() {
  const scratch = await mkdtemp(join(tmpdir(), 'ql-bench-s3-'));
  const { child, endpoint } = await startServer(join(scratch, 's3rver'));
  const { client, counter } = countingClient(endpoint);
  try {
    const storage = (prefix) => new S3Storage(client, `s3://${BUCKET}/${prefix}`);
    const upload = await uploadMBps(storage('bench'), scratch);
    const commit = await commitLatency(storage('commits'), counter);
    // Each twice, alternating, the better kept: the first run of a process also warms up the JIT and the encode worker.
    const intoDir = await rowsPerSecond(join(scratch, 'lake-1'), undefined);
    const intoS3 = Math.max(await rowsPerSecond('s3://bench/rows-1', storage('rows-1')), await rowsPerSecond('s3://bench/rows-2', storage('rows-2')));
    const intoDir2 = await rowsPerSecond(join(scratch, 'lake-2'), undefined);
    const plansFile = await writeReplayPlans(scratch);
    const cliDir = await cliBackfill(join(scratch, 'cli-lake'), endpoint, plansFile);
    const cliS3 = await cliBackfill(`s3://${BUCKET}/cli-lake`, endpoint, plansFile);
    return [
      { name: 's3 upload (64 MiB staged file, multipart, loopback s3rver)', value: Math.round(upload * 10) / 10, unit: 'MB/s', target: null },
      { name: 's3 commit latency (one new 500-row file, median)', value: Math.round(commit.ms * 10) / 10, unit: 'ms', target: null },
      { name: 's3 requests per commit (one new file, median)', value: commit.requests, unit: 'requests', target: null },
      { name: `sink rows/s into a folder (${ROWS} 1m bars, parquet)`, value: Math.round(Math.max(intoDir, intoDir2)), unit: 'rows/s', target: null },
      { name: `sink rows/s into s3 (${ROWS} 1m bars, parquet)`, value: Math.round(intoS3), unit: 'rows/s', target: null },
      { name: `backfill through the CLI into a folder (kline-backfill, 7 d, ${cliDir.rows} rows, hive)`, value: Math.round(cliDir.perSecond), unit: 'rows/s', target: null },
      { name: `backfill through the CLI into s3 (kline-backfill, 7 d, ${cliS3.rows} rows, Delta)`, value: Math.round(cliS3.perSecond), unit: 'rows/s', target: null },
    ];
  } finally {
    client.destroy();
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
    await rm(scratch, { recursive: true, force: true });
  }
}
