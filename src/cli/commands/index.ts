import type { CommandModule } from 'yargs';
import { serveCommand } from './serve.js';

/** Every command of the CLI. Adding one: import it and append it here. */
export const COMMANDS: readonly CommandModule<object, any>[] = [serveCommand];
