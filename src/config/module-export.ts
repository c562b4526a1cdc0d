/**
 * What a pipeline module gave instead of a pipeline, in words a person acts on: a thrown value that
 * is no Error (`throw null`, `throw 'text'` once printed "undefined" or crashed as a bug of ours),
 * and a default export that is null, a function or a Promise (once "remove the key", "got function
 * a mapping" or three "is required" lines for keys the file does write).
 */
import { quoteValue } from '../core/field-failure.js';

/** Characters of a thrown value quoted back: enough to recognise it. */
const SHOWN_CHARS = 200;

/** The message of what a module threw while it loaded. */
export function thrownText(thrown: unknown): string {
  const message = (thrown as { message?: unknown } | null | undefined)?.message;
  if (typeof message === 'string') return message;
  if (typeof thrown === 'string') return `it threw the text ${quoteValue(thrown, SHOWN_CHARS)}, not an Error`;
  if (thrown === null || thrown === undefined || typeof thrown !== 'object') return `it threw ${String(thrown)}, not an Error`;
  let shown: string;
  try {
    shown = JSON.stringify(thrown) ?? String(thrown);
  } catch {
    shown = String(thrown);
  }
  return `it threw ${shown.length > SHOWN_CHARS ? `${shown.slice(0, SHOWN_CHARS)}...` : shown}, not an Error`;
}

/** Why a module's default export cannot be a pipeline before validation, or undefined. */
export function defaultExportProblem(value: unknown): string | undefined {
  // The schema's words for a null value ("give it a value, or remove the key") fit a key, not the export.
  if (value === null) return 'the default export is null, not a pipeline: export the pipeline itself, export default definePipeline({ name, source, sink })';
  if (typeof value === 'function') {
    return 'the default export is a function, not a pipeline: export the pipeline itself, export default definePipeline({ name, source, sink })';
  }
  if (value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function') {
    return 'the default export is a Promise, not a pipeline: await it where it is exported (export default await ...; a module may use top-level await)';
  }
  return undefined;
}

/**
 * A module that imports quotelake from a folder where Node cannot find it (quotelake run by a
 * global install or npx from elsewhere): what to do, besides Node's "Cannot find package".
 */
export function missingQuotelakeHint(thrown: unknown): string | undefined {
  const { code, message } = (thrown ?? {}) as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' || typeof message !== 'string' || !message.includes("'quotelake'")) return undefined;
  return 'Node resolves an import of quotelake from the pipeline file\'s folder: install quotelake in a package there (npm install quotelake), or drop the import and export the object itself (definePipeline only adds types)';
}
