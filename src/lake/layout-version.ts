/**
 * The version of the lake's layout, recorded in `<output>/_quotelake/layout.json` and in every file.
 * 1: quotelake 0.1.0 (manifests inside the dataset folders, hive keys repeated as file columns).
 * 2: bookkeeping under `_quotelake/`, no column both a hive key and a file column.
 */
export const LAYOUT_VERSION = 2;
