/** Loads a pipeline file: YAML (data only) or a JS/TS module whose default export is definePipeline(...). */
import { readFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError } from '../core/errors.js';
import { parsePipelineYaml, validatePipeline } from './parse-pipeline.js';
import { syntaxErrorPosition } from './syntax-error-position.js';
import { typeScriptRefusal } from './typescript-pipeline.js';
import { pipelineText } from './pipeline-text.js';
import { snapshotExport } from './export-snapshot.js';
import { defaultExportProblem, missingQuotelakeHint, thrownText } from './module-export.js';
import type { Pipeline, Registry } from './pipeline-schema.js';

export const isYamlPipeline = (file: string): boolean => ['.yaml', '.yml'].includes(extname(file).toLowerCase());

export async function readPipelineText(file: string): Promise<string> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (cause) {
    throw new ConfigError(`cannot read pipeline file: ${(cause as Error).message}`, { file }, cause);
  }
  return pipelineText(bytes, file);
}

export async function loadPipeline(file: string, registry: Registry): Promise<Pipeline> {
  const ext = extname(file).toLowerCase();
  if (isYamlPipeline(file)) return parsePipelineYaml(await readPipelineText(file), { registry, file });
  if (ext === '.js' || ext === '.mjs' || ext === '.ts' || ext === '.mts') {
    let mod: { default?: unknown };
    try {
      mod = (await import(pathToFileURL(resolve(file)).href)) as { default?: unknown };
    } catch (cause) {
      if ((ext === '.ts' || ext === '.mts') && (cause as { code?: unknown } | null | undefined)?.code === 'ERR_UNKNOWN_FILE_EXTENSION') {
        const { message, hint } = typeScriptRefusal(file);
        throw new ConfigError(`${message} (${hint})`, { file }, cause);
      }
      const where = cause instanceof SyntaxError ? syntaxErrorPosition(resolve(file)) : undefined;
      throw new ConfigError(`cannot load pipeline module: ${thrownText(cause)}`, { file, ...where }, cause, missingQuotelakeHint(cause));
    }
    if (mod.default === undefined) throw new ConfigError('the module has no default export (definePipeline(...))', { file });
    const problem = defaultExportProblem(mod.default);
    if (problem !== undefined) throw new ConfigError(problem, { file });
    const snapshot = snapshotExport(mod.default);
    if ('failure' in snapshot) {
      const { path, message } = snapshot.failure;
      throw new ConfigError(`${path === '' ? 'the default export' : path}: reading it threw: ${message}`, { file });
    }
    return validatePipeline(snapshot.value, { registry, file });
  }
  throw new ConfigError(`unsupported pipeline file type "${ext}" (use .yaml, .yml, .ts, .mts, .js or .mjs)`, { file });
}
