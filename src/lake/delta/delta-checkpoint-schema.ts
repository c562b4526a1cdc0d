/**
 * The Arrow schema of a classic (V1 spec) checkpoint: one nullable struct column per action kind,
 * each row holding one action (PROTOCOL.md "Checkpoint Schema"). Stats travel as the JSON string
 * (`delta.checkpoint.writeStatsAsJson`, the default); no `stats_parsed` nor `partitionValues_parsed`
 * (only for `writeStatsAsStruct` tables). Removes carry no stats nor tags, as the protocol says.
 */
import { Bool, Field, Int32, Int64, List, Map_, Schema, Struct, Utf8, type DataType } from 'apache-arrow';

const f = (name: string, type: DataType) => new Field(name, type, true);
// Map_'s constructor types its entries field as never; the struct is the one Arrow expects.
const stringMap = () =>
  new Map_(new Field('key_value', new Struct([new Field('key', new Utf8(), false), f('value', new Utf8())]), false) as unknown as Field<never>);

export const CHECKPOINT_COLUMNS = ['txn', 'add', 'remove', 'metaData', 'protocol'] as const;

export function checkpointSchema(): Schema {
  return new Schema([
    f('txn', new Struct([f('appId', new Utf8()), f('version', new Int64()), f('lastUpdated', new Int64())])),
    f(
      'add',
      new Struct([
        f('path', new Utf8()),
        f('partitionValues', stringMap()),
        f('size', new Int64()),
        f('modificationTime', new Int64()),
        f('dataChange', new Bool()),
        f('stats', new Utf8()),
      ]),
    ),
    f(
      'remove',
      new Struct([
        f('path', new Utf8()),
        f('deletionTimestamp', new Int64()),
        f('dataChange', new Bool()),
        f('extendedFileMetadata', new Bool()),
        f('partitionValues', stringMap()),
        f('size', new Int64()),
      ]),
    ),
    f(
      'metaData',
      new Struct([
        f('id', new Utf8()),
        f('name', new Utf8()),
        f('description', new Utf8()),
        f('format', new Struct([f('provider', new Utf8()), f('options', stringMap())])),
        f('schemaString', new Utf8()),
        f('partitionColumns', new List(f('element', new Utf8()))),
        f('configuration', stringMap()),
        f('createdTime', new Int64()),
      ]),
    ),
    f('protocol', new Struct([f('minReaderVersion', new Int32()), f('minWriterVersion', new Int32())])),
  ]);
}
