/** What the encode pool (encode-pool.ts) and its workers (encode-service.ts) say to each other. */
import type { PackedData } from './column-transfer.js';

export interface EncodeRequest {
  readonly id: number;
  /** Absolute path of the staged file. */
  readonly path: string;
  readonly rows: number;
  readonly columns: readonly PackedData[];
  /** FileJob.stretches (copied: a few pairs). */
  readonly stretches?: Int32Array;
  readonly metadata: readonly [string, string][];
  /** Which encoder and schema the worker uses for this file (see the worker's resolver). */
  readonly encoder?: unknown;
}

export type EncodeReply =
  | { readonly id: number; readonly error?: undefined; readonly bytes: number; readonly sha256: string }
  | {
      readonly id: number;
      readonly error: string;
      /** A Node error's code, syscall and file (ENOSPC, write, <path>): the CLI names the cause and its fix from them. */
      readonly errno?: { readonly code: string; readonly syscall?: string; readonly path?: string };
    };
