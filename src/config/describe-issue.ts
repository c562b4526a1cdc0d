/**
 * Turns a zod issue into a plain sentence that names the path and the value, e.g.
 * `source.intervals[1]: "2h" is not one of 1m, 5m` or `unknown key "sinkk"`.
 */
import type { z } from 'zod';
import { didYouMean } from '../core/did-you-mean.js';
import { quoteValue } from '../core/field-failure.js';
import { redactUrl } from '../core/redact.js';
import { isSecretKey, TOKENS_GO_ELSEWHERE } from './secret-keys.js';

export type IssuePath = readonly PropertyKey[];

export function formatPath(path: IssuePath): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

/** Characters of a value quoted in a problem: enough for any real one. */
const SHOWN_CHARS = 200;

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  // A URL may carry a password or a token (service.baseUrl): never quoted back as written. A long
  // value is cut (a 2 MB code once came back twice, 4 MB of stderr).
  if (typeof value === 'string') return quoteValue(/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(value) ? redactUrl(value) : value, SHOWN_CHARS);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return 'a list';
  return 'a mapping';
}

function kindOf(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  // From definePipeline(): a setting takes an instant as text.
  if (value instanceof Date) return `a date: give it as text, such as ${Number.isNaN(value.getTime()) ? '"2026-11-27T00:00:00Z"' : `${JSON.stringify(value.toISOString())} (toISOString())`}`;
  if (Array.isArray(value)) return 'a list';
  // From definePipeline(): a Set or Map has no keys zod reads, yet is no mapping either.
  if (value instanceof Set) return 'a Set';
  if (value instanceof Map) return 'a Map';
  if (typeof value === 'object') return 'a mapping';
  // From definePipeline(): `codes: () => [...]` is a function, which show() has no words for.
  if (typeof value === 'function') return 'a function: give the value itself, not a function that returns it';
  return `${typeof value} ${show(value)}`;
}

function expectedName(expected: string): string {
  switch (expected) {
    case 'object':
      return 'a mapping';
    case 'array':
      return 'a list';
    case 'int':
      return 'a whole number';
    default:
      return `a ${expected}`;
  }
}

function valueAt(root: unknown, path: IssuePath): unknown {
  let node = root;
  for (const part of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[part as string];
  }
  return node;
}

export interface DescribedIssue {
  /** Path of the node to point at (for an unknown key: the key itself). */
  readonly path: IssuePath;
  /** Whether `path` points at a mapping key rather than a value. */
  readonly atKey: boolean;
  readonly message: string;
}

/** Words other tools give another meaning, where one guess could fetch the wrong data: both meanings said. */
const AMBIGUOUS: Readonly<Record<string, { among: string; text: string }>> = {
  // A month in some exchanges' APIs, yet one letter's case from our minute.
  '1M': { among: '1mo', text: '; "1m" is a minute bar, "1mo" a month bar' },
};

/** `; did you mean "x"?` when a candidate is near `word`, else ''. */
function suggestion(word: unknown, candidates: readonly string[]): string {
  if (typeof word !== 'string') return '';
  const ambiguous = AMBIGUOUS[word];
  if (ambiguous !== undefined && candidates.includes(ambiguous.among)) return ambiguous.text;
  const near = didYouMean(word, candidates);
  return near === undefined ? '' : `; did you mean ${JSON.stringify(near)}?`;
}

/** Words YAML 1.1 read as booleans; the 1.2 core schema keeps them as text. */
const OLD_BOOLEANS = /^(?:y|yes|n|no|on|off|true|false)$/i;

/** How the pipeline was written: the advice is said in its own terms (a YAML `- ` is no help in a module). */
export type PipelineSyntax = 'yaml' | 'code';

/**
 * What to write instead where YAML typed a value other than meant: `codes: [700]` is a number,
 * `keepState: yes` text, `concurrency: "4"` text, `sink: parquet` no stage, `transforms:` with
 * nothing under it null; a module (definePipeline) gets the same in its own terms.
 */
function retypeHint(expected: string, value: unknown, path: IssuePath, syntax: PipelineSyntax): string {
  const stage = path.length === 1 ? path[0] === 'source' || path[0] === 'sink' : path.length === 2 && path[0] === 'transforms' && typeof path[1] === 'number';
  if (expected === 'object' && stage && typeof value === 'string') {
    // Only a word that could be a type is written back: the text may be long, or a URL with a password.
    return `: a stage is a mapping with its type, { type: ${/^[A-Za-z0-9-]{1,64}$/.test(value) ? value : '<type>'} }`;
  }
  if (expected === 'array' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    if (syntax === 'yaml') return ': make it a list ("- " before its first key)';
    if (value instanceof Set) return ': make it an array ([...set])';
    // Only a list of stages takes the object itself as its item; a list of codes does not.
    return path.length === 1 && path[0] === 'transforms' && !(value instanceof Map) ? ': make it an array of stages, [{ type: ... }]' : ': make it an array';
  }
  if ((expected === 'array' || expected === 'object') && value === null) return ': give it a value, or remove the key';
  if (expected === 'string' && (typeof value === 'number' || typeof value === 'boolean')) return ': put it in quotes to make it text';
  if (expected === 'boolean' && typeof value === 'string' && OLD_BOOLEANS.test(value.trim())) return syntax === 'yaml' ? ': write true or false, unquoted (yes, no, on and off are text in YAML 1.2)' : ': write true or false, not a string';
  if ((expected === 'number' || expected === 'int') && typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return ': write the number without quotes';
  return '';
}

/** A key of a stage that holds a type name, as in `kind: kline-history`, where `type` was meant. */
function keyHoldingOneOf(stage: unknown, names: readonly string[]): { key: string; type: string } | undefined {
  if (stage === null || typeof stage !== 'object' || Array.isArray(stage)) return undefined;
  for (const [key, v] of Object.entries(stage)) if (typeof v === 'string' && names.includes(v)) return { key, type: v };
  return undefined;
}

/**
 * One plain message per issue; `input` is the raw document so values can be quoted. `knownKeys`
 * names the keys the mapping at a path accepts, so an unknown key can come with the one it resembles.
 */
export function describeIssue(issue: z.core.$ZodIssue, input: unknown, knownKeys?: (path: IssuePath) => readonly string[], syntax: PipelineSyntax = 'yaml'): DescribedIssue[] {
  const path = issue.path;
  const where = formatPath(path);
  const prefix = where === '' ? '' : `${where}: `;
  const value = valueAt(input, path);
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((key) => ({
        path: [...path, key],
        atKey: true,
        message: isSecretKey(key)
          ? `${prefix}${JSON.stringify(key)} is not accepted: ${TOKENS_GO_ELSEWHERE}`
          : `${prefix}unknown key ${JSON.stringify(key)}${suggestion(key, knownKeys?.(path) ?? [])}`,
      }));
    case 'invalid_type': {
      if (value === undefined) return [{ path, atKey: false, message: `${where}: is required` }];
      // YAML reads 1e400 or .inf as Infinity, which zod calls no number at all.
      if (typeof value === 'number' && !Number.isFinite(value)) return [{ path, atKey: false, message: `${prefix}expected a finite number, got ${String(value)}` }];
      return [{ path, atKey: false, message: `${prefix}expected ${expectedName(issue.expected)}, got ${kindOf(value)}${retypeHint(issue.expected, value, path, syntax)}` }];
    }
    case 'invalid_value':
      return [
        {
          path,
          atKey: false,
          message: `${prefix}${show(value)} is not one of ${issue.values.map((v) => String(v)).join(', ')}${suggestion(value, issue.values.map((v) => String(v)))}`,
        },
      ];
    case 'invalid_union': {
      const note = (issue as { note?: string }).note;
      const options = (issue as { options?: unknown[] }).options;
      if (note === 'No matching discriminator' && options) {
        const names = options.map(String);
        if (value === undefined) {
          const misnamed = keyHoldingOneOf(valueAt(input, path.slice(0, -1)), names);
          const hint = misnamed === undefined ? '' : ` (write "${misnamed.key}: ${misnamed.type}" as "type: ${misnamed.type}")`;
          return [{ path, atKey: false, message: `${prefix}a type is required${hint}; expected one of ${names.join(', ')}` }];
        }
        return [{ path, atKey: false, message: `${prefix}unknown type ${show(value)}; expected one of ${names.join(', ')}${suggestion(value, names)}` }];
      }
      return [{ path, atKey: false, message: `${prefix}${issue.message}` }];
    }
    case 'too_small':
    case 'too_big': {
      // zod's positive() is an exclusive bound: 0 is not "at least 0".
      const inclusive = (issue as { inclusive?: boolean }).inclusive !== false;
      const bound = issue.code === 'too_small' ? (inclusive ? 'at least' : 'greater than') : inclusive ? 'at most' : 'less than';
      const limit = issue.code === 'too_small' ? issue.minimum : issue.maximum;
      const origin = issue.origin;
      const plural = (n: unknown, word: string) => `${String(n)} ${word}${Number(n) === 1 ? '' : 's'}`;
      if (origin === 'array' && Array.isArray(value)) {
        return [{ path, atKey: false, message: `${prefix}a list of ${plural(value.length, 'item')}: must have ${bound} ${plural(limit, 'item')}` }];
      }
      const unit = origin === 'string' ? plural(limit, 'character') : String(limit);
      return [{ path, atKey: false, message: `${prefix}${show(value)} must be ${bound} ${unit}` }];
    }
    case 'invalid_format': {
      // A schema's own message (e.g. "must match [a-z0-9-]+") says more than zod's generic one.
      const own = !/^Invalid/.test(issue.message);
      const what = own ? issue.message : `is not a valid ${issue.format}`;
      return [{ path, atKey: false, message: `${prefix}${show(value)} ${what}` }];
    }
    default:
      return [
        {
          path,
          atKey: false,
          message:
            issue.code === 'custom' && (issue.params as { lint?: boolean } | undefined)?.lint
              ? `${prefix}${issue.message}`
              : // A scalar leads its message ("0 must be ..."); a mapping or list is the subject already.
                `${prefix}${value === undefined || (typeof value === 'object' && value !== null) ? '' : `${show(value)} `}${issue.message}`,
        },
      ];
  }
}
