/**
 * An error as log fields (`err` of a log line): its class, message, stable code, the data it
 * carries, its stack and, nested, its cause chain. Enough to report a defect from one JSON line.
 */

/** Deeper cause chains are cut here (a cycle would otherwise never end). */
const MAX_CAUSES = 8;

export interface ErrorFields {
  type: string;
  message: string;
  code?: string;
  stack?: string;
  cause?: ErrorFields;
  [field: string]: unknown;
}

function plain(value: unknown): boolean {
  return ['string', 'number', 'boolean'].includes(typeof value) || (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number'));
}

export function errorFields(error: unknown, depth = 0): ErrorFields {
  if (!(error instanceof Error)) return { type: typeof error, message: String(error) };
  const out: ErrorFields = { type: error.constructor?.name || error.name, message: error.message };
  // The data an error class carries (code, stage, endpoint, ret, path ...): own primitive fields.
  for (const [key, value] of Object.entries(error)) {
    if (key === 'message' || key === 'stack' || key === 'cause' || !plain(value)) continue;
    out[key] = value;
  }
  if (error.stack) out.stack = error.stack;
  if (error.cause !== undefined && depth < MAX_CAUSES) out.cause = errorFields(error.cause, depth + 1);
  return out;
}
