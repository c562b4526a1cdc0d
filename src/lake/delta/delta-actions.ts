/**
 * The Delta Lake log actions quotelake writes and reads (PROTOCOL.md, "Actions"): one JSON object
 * per line of `_delta_log/<version>.json`, each with exactly one of these keys. Field order here is
 * the order they are serialised in, so two writers given the same input write the same bytes.
 */

/** Reader 1 / writer 2: no table features. timestampNtz, column mapping, deletion vectors and
 * the other features would demand reader 3 / writer 7; quotelake's types need none of them. */
export interface ProtocolAction {
  minReaderVersion: 1;
  minWriterVersion: 2;
}

export interface MetaDataAction {
  id: string;
  format: { provider: 'parquet'; options: Record<string, string> };
  schemaString: string;
  partitionColumns: string[];
  configuration: Record<string, string>;
  createdTime: number;
}

/** Partition values as the protocol serialises them: strings, null for a NULL partition. */
export type PartitionValues = Record<string, string | null>;

export interface AddAction {
  /** Relative to the table root, URI-encoded (delta-path.ts). */
  path: string;
  partitionValues: PartitionValues;
  size: number;
  modificationTime: number;
  dataChange: boolean;
  /** JSON string: numRecords, minValues, maxValues, nullCount (delta-stats.ts). */
  stats?: string;
}

export interface RemoveAction {
  path: string;
  deletionTimestamp: number;
  dataChange: boolean;
  /** true: partitionValues and size are present, so vacuum and readers need not look the file up. */
  extendedFileMetadata?: boolean;
  partitionValues?: PartitionValues;
  size?: number;
}

export interface CommitInfoAction {
  timestamp: number;
  /** FSCK: `quotelake repair` made the log's live files the manifest's (Databricks' name for it). */
  operation: 'WRITE' | 'OPTIMIZE' | 'FSCK';
  operationParameters: Record<string, string>;
  engineInfo: string;
}

/** An application's progress (PROTOCOL.md "Transaction Identifiers"); see delta-txn.ts for ours. */
export interface TxnAction {
  appId: string;
  version: number;
  lastUpdated?: number;
}

export type DeltaAction =
  | { protocol: ProtocolAction }
  | { metaData: MetaDataAction }
  | { add: AddAction }
  | { remove: RemoveAction }
  | { commitInfo: CommitInfoAction }
  | { txn: TxnAction };

/** The one line of an action in a commit file. */
export function actionLine(action: DeltaAction): string {
  return JSON.stringify(action);
}
