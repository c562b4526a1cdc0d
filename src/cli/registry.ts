/** The components the CLI builds pipelines from: the project registry (src/components.ts). */
import { components } from '../components.js';
import type { Registry } from '../config/pipeline-schema.js';

export const registry: Registry = components;
