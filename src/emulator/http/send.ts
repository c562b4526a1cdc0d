import type { ServerResponse } from 'node:http';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export interface Reply {
  status: number;
  body: unknown;
  /** The body already serialised (hot paths); must equal JSON.stringify(body). */
  json?: string;
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
  const text = reply.json ?? JSON.stringify(reply.body);
  const dripMs = options.dripMs ?? 0;
  if (!options.truncate && dripMs <= 0) {
    // The common case: one write of the string, no intermediate Buffer.
    const headers: Record<string, string | number> = {
      'content-type': JSON_CONTENT_TYPE,
      'content-length': Buffer.byteLength(text, 'utf8'),
      ...reply.headers,
    };
    if (options.close) headers.connection = 'close';
    res.writeHead(reply.status, headers);
    res.end(text, 'utf8');
    return;
  }
  let payload = Buffer.from(text, 'utf8');
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
