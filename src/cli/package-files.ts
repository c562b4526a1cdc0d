/**
 * Files shipped at the package root (pipelines/, pipeline.schema.json), found from this module.
 * It is src/cli/package-files.ts, dist/cli/package-files.js, or inside the CLI bundle's files in
 * dist/cli/ (scripts/bundle-cli.mjs): one folder below the root every time. A module deeper down
 * (cli/actions/) takes its paths from here, since bundled it no longer sits where it was written.
 */
import { fileURLToPath } from 'node:url';

const root = new URL('../../', import.meta.url);

/** `<package>/pipelines`: the pipelines shipped with quotelake. */
export const SHIPPED_PIPELINES_DIR = fileURLToPath(new URL('pipelines/', root));

/** `<package>/pipeline.schema.json`: the JSON Schema of pipeline files. */
export const PIPELINE_SCHEMA_FILE = fileURLToPath(new URL('pipeline.schema.json', root));
