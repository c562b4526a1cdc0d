import type { CommandModule } from 'yargs';
import { compactCommand } from './compact.js';
import { completionCommand } from './completion.js';
import { enqueueCommand } from './enqueue.js';
import { initCommand } from './init.js';
import { inspectCommand } from './inspect.js';
import { listCommand } from './list.js';
import { migrateCommand } from './migrate.js';
import { planCommand } from './plan.js';
import { queueCommand } from './queue.js';
import { quotaCommand } from './quota.js';
import { repairCommand } from './repair.js';
import { runCommand } from './run.js';
import { schemaCommand } from './schema.js';
import { serveCommand } from './serve.js';
import { stateCommand } from './state.js';
import { vacuumCommand } from './vacuum.js';
import { validateCommand } from './validate.js';
import { workerCommand } from './worker.js';

/** Every command of the CLI. Adding one: import it and append it here. */
export const COMMANDS: readonly CommandModule<object, any>[] = [
  runCommand,
  planCommand,
  validateCommand,
  listCommand,
  inspectCommand,
  migrateCommand,
  compactCommand,
  vacuumCommand,
  repairCommand,
  quotaCommand,
  enqueueCommand,
  workerCommand,
  queueCommand,
  stateCommand,
  schemaCommand,
  serveCommand,
  completionCommand,
  initCommand,
];
