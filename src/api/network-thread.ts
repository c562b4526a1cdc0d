/**
 * The process's one network thread (transport-thread.ts), shared by every ThreadedTransport: a
 * worker's slices each open a client, and a thread per client would start (and JIT) per slice.
 *
 * It starts on the first request and keeps the process alive only while a request is in flight or
 * a transport is closing. If it dies, what it had in flight fails as transport errors, and the next
 * request starts a new one (its transports are opened there again).
 */
import { Worker } from 'node:worker_threads';
import { compiledUrl } from '../core/compiled-url.js';
import type { FromNetworkThread, ToNetworkThread, TransportSetup } from './transport-messages.js';

/** What a transport hears of one of its requests, in the order it happened. */
export interface RequestListener {
  onMessage(message: Extract<FromNetworkThread, { id: number }>): void;
  /** The thread died with the request in flight. */
  onLost(error: Error): void;
}

class NetworkThread {
  private worker: Worker | undefined;
  /** Transports opened in the current worker. */
  private opened = new Set<number>();
  private readonly listeners = new Map<number, RequestListener>();
  private readonly closing = new Map<number, () => void>();
  private nextRequest = 0;

  /** Starts the thread now (a client about to send soon), so the first request does not wait for it to load. */
  warm(): void {
    this.live();
  }

  send(transport: number, setup: TransportSetup, request: Extract<ToNetworkThread, { type: 'send' }>['request'], listener: RequestListener): number {
    const worker = this.live();
    if (!this.opened.has(transport)) {
      this.opened.add(transport);
      worker.postMessage({ type: 'open', transport, setup } satisfies ToNetworkThread);
    }
    const id = ++this.nextRequest;
    this.listeners.set(id, listener);
    this.hold();
    worker.postMessage({ type: 'send', transport, id, request } satisfies ToNetworkThread);
    return id;
  }

  abort(id: number): void {
    if (this.listeners.has(id)) this.worker?.postMessage({ type: 'abort', id } satisfies ToNetworkThread);
  }

  /** Resolves once the transport's requests have ended and its connections are closed. */
  close(transport: number): Promise<void> {
    const worker = this.worker;
    if (!worker || !this.opened.has(transport)) return Promise.resolve();
    this.opened.delete(transport);
    return new Promise<void>((resolve) => {
      this.closing.set(transport, resolve);
      this.hold();
      worker.postMessage({ type: 'close', transport } satisfies ToNetworkThread);
    });
  }

  private live(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(compiledUrl(new URL('./transport-thread.js', import.meta.url)), { execArgv: [] });
    worker.unref();
    worker.on('message', (message: FromNetworkThread) => this.receive(message));
    worker.on('error', (error) => this.lost(worker, error));
    worker.on('exit', (code) => this.lost(worker, new Error(`the network thread exited with code ${code}`)));
    this.worker = worker;
    this.opened = new Set();
    return worker;
  }

  private receive(message: FromNetworkThread): void {
    if (message.type === 'closed') {
      const resolve = this.closing.get(message.transport);
      this.closing.delete(message.transport);
      resolve?.();
    } else {
      const listener = this.listeners.get(message.id);
      if (message.type === 'done' || message.type === 'failed') this.listeners.delete(message.id);
      listener?.onMessage(message);
    }
    this.hold();
  }

  /** Keeps the process alive exactly while something waits on the thread. */
  private hold(): void {
    if (this.listeners.size > 0 || this.closing.size > 0) this.worker?.ref();
    else this.worker?.unref();
  }

  private lost(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    const listeners = [...this.listeners.values()];
    this.listeners.clear();
    const closing = [...this.closing.values()];
    this.closing.clear();
    for (const listener of listeners) listener.onLost(error);
    for (const resolve of closing) resolve();
  }
}

export const networkThread = new NetworkThread();
