/**
 * A long-running process (a worker) loads the same pipeline file for every slice it takes. The
 * YAML parse and the schema check are most of a slice's start-up, and slices taken together would
 * each parse the file at once. This loader reads the file every time (an edit is seen by the next
 * slice) and parses a text it has seen once: slices of one pipeline share one parse, each getting
 * its own copy. A file whose text fails keeps failing the same way, so nothing is cached for it.
 * Module pipelines (.ts/.js) go to loadPipeline as before (Node caches the module itself).
 */
import { resolve } from 'node:path';
import { isYamlPipeline, loadPipeline, readPipelineText } from './load-pipeline.js';
import { parsePipelineYaml } from './parse-pipeline.js';
import type { Pipeline, Registry } from './pipeline-schema.js';

export type PipelineLoader = (file: string, registry: Registry) => Promise<Pipeline>;

interface Parsed {
  readonly text: string;
  readonly registry: Registry;
  readonly pipeline: Promise<Pipeline>;
}

export function cachedPipelineLoader(): PipelineLoader {
  // One entry per file: the last text read from it (an edited file replaces its entry).
  const byFile = new Map<string, Parsed>();
  return async (file, registry) => {
    if (!isYamlPipeline(file)) return loadPipeline(file, registry);
    const text = await readPipelineText(file);
    const key = resolve(file);
    let entry = byFile.get(key);
    if (entry === undefined || entry.text !== text || entry.registry !== registry) {
      // Parsed on the next tick, so a parse error rejects the promise rather than throwing here.
      entry = { text, registry, pipeline: Promise.resolve().then(() => parsePipelineYaml(text, { registry, file })) };
      byFile.set(key, entry);
      const failed = entry;
      failed.pipeline.catch(() => byFile.get(key) === failed && byFile.delete(key));
    }
    // A copy per caller: a run may build on its pipeline, and the next slice must get the file's.
    return structuredClone(await entry.pipeline);
  };
}
