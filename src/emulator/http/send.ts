import type { ServerResponse } from 'node:http';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export interface Reply {
  status: number;
  body: unknown;
  /** The body already serialised (hot paths), in pieces; joined it must equal JSON.stringify(body). */
  chunks?: readonly (string | Uint8Array)[];
  headers?: Record<string, string>;
}

export interface SendOptions {
  /** Write the body in small chunks with this pause (real timers) between them. */
  dripMs?: number;
  /** Send only the first part of the body, with an honest Content-Length for that part. */
  truncate?: boolean;
  /** Close the connection after this response (e.g. an unread oversized body). */
  close?: boolean;
}

const MAX_DRIP_CHUNKS = 16;
const MIN_DRIP_CHUNK = 64;

/** Serialise and send a JSON reply; every response of the emulator goes through here. */
export function sendJson(res: ServerResponse, reply: Reply, options: SendOptions = {}): void {
  if (res.headersSent || res.destroyed) return;
  const chunks = reply.chunks ?? [JSON.stringify(reply.body)];
  const dripMs = options.dripMs ?? 0;
  if (!options.truncate && dripMs <= 0) {
    // The common case: the pieces written as they are (cached Buffers are not copied).
    let length = 0;
    for (const c of chunks) length += typeof c === 'string' ? Buffer.byteLength(c, 'utf8') : c.length;
    const headers: Record<string, string | number> = {
      'content-type': JSON_CONTENT_TYPE,
      'content-length': length,
      ...reply.headers,
    };
    if (options.close) headers.connection = 'close';
    res.writeHead(reply.status, headers);
    if (chunks.length === 1) {
      res.end(chunks[0]);
      return;
    }
    res.cork();
    for (let i = 0; i < chunks.length - 1; i++) res.write(chunks[i]);
    res.end(chunks[chunks.length - 1]);
    return;
  }
  let payload: Buffer = Buffer.concat(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c, 'utf8') : c)));
  if (options.truncate) payload = payload.subarray(0, Math.max(1, Math.floor(payload.length / 2)));
  const headers: Record<string, string | number> = {
    'content-type': JSON_CONTENT_TYPE,
    'content-length': payload.length,
    ...reply.headers,
  };
  if (options.close) headers.connection = 'close';
  res.writeHead(reply.status, headers);
  if (dripMs <= 0 || payload.length <= MIN_DRIP_CHUNK) {
    res.end(payload);
    return;
  }
  const chunkSize = Math.max(MIN_DRIP_CHUNK, Math.ceil(payload.length / MAX_DRIP_CHUNKS));
  let offset = 0;
  const writeNext = (): void => {
    if (res.destroyed) return;
    const end = Math.min(payload.length, offset + chunkSize);
    const chunk = payload.subarray(offset, end);
    offset = end;
    if (offset >= payload.length) res.end(chunk);
    else {
      res.write(chunk);
      setTimeout(writeNext, dripMs);
    }
  };
  writeNext();
}
