/** The lake's layout: its version file, and the migration of an older layout. */
export { describeMigration, ensureLayout, layoutState, recordLayout, type LayoutState } from './ensure-layout.js';
export { ensureLakeId, readLakeId } from './lake-id.js';
export { findLayoutFile, LAYOUT_FILE, layoutFileWhere, readLayoutFile, removeStaleLayoutTemps, writeLayoutFile, type LayoutFile, type LayoutFileFound } from './layout-file.js';
export { MIGRATION_JOURNAL, migrateLayout1To2, type MigrationHooks, type MigrationReport } from './migrate-layout.js';
export { enclosingLake, lakeFolderNamed, lakeFolderOf } from './enclosing-lake.js';
