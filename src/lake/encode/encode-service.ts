/**
 * The worker side of the encode pool: rebuild each job's columns on the moved buffers, encode,
 * write durably, hash, and answer with the byte length and sha256 (or the error's message).
 * Jobs are taken as they arrive, so one file's write and fsync overlap the next one's encoding.
 */
import { parentPort } from 'node:worker_threads';
import type { Schema } from 'apache-arrow';
import { unpackColumns } from './column-transfer.js';
import type { EncodeReply, EncodeRequest } from './encode-messages.js';
import { encodeAndWrite } from './staged-file-writer.js';
import { minorCollection } from './minor-collection.js';
import type { TableEncoder } from './table-encoder.js';

/** The encoder and schema for a job's `encoder` key. */
export type EncoderResolver = (key: unknown) => { readonly encoder: TableEncoder; readonly schema: Schema };

export function serveEncodeJobs(resolve: EncoderResolver): void {
  const port = parentPort;
  if (port === null) throw new Error('serveEncodeJobs runs in a worker thread');
  port.on('message', (request: EncodeRequest) => {
    void encodeJob(request, resolve).then((reply) => {
      port.postMessage(reply);
      // The job's moved buffers are dead now: free them (minor-collection.ts says why).
      minorCollection();
    });
  });
}

async function encodeJob(request: EncodeRequest, resolve: EncoderResolver): Promise<EncodeReply> {
  try {
    const { encoder, schema } = resolve(request.encoder);
    const columns = unpackColumns(schema.fields, request.columns);
    const written = await encodeAndWrite({ path: request.path, rows: request.rows, columns, ...(request.stretches && { stretches: request.stretches }), metadata: new Map(request.metadata) }, encoder, schema);
    return { id: request.id, ...written };
  } catch (error) {
    const { code, syscall } = (error ?? {}) as NodeJS.ErrnoException;
    const path = (error as NodeJS.ErrnoException | undefined)?.path ?? request.path;
    return {
      id: request.id,
      error: error instanceof Error ? error.message : String(error),
      ...(typeof code === 'string' ? { errno: { code, path, ...(typeof syscall === 'string' ? { syscall } : {}) } } : {}),
    };
  }
}
