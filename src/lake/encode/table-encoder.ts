/** How a partitioned sink turns an Arrow table into file bytes and back. */
import type { Table } from 'apache-arrow';

export interface TableEncoder {
  /** `parquet` or `arrow`: names the manifest and the staging folder. */
  readonly format: string;
  /** File extension with its dot, e.g. `.parquet`. */
  readonly extension: string;
  encode(table: Table, metadata: ReadonlyMap<string, string>): Uint8Array;
  decode(bytes: Uint8Array): Table;
}
