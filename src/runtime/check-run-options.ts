/**
 * What a program hands runPipeline, checked before anything is fetched or written. A JavaScript
 * caller has no compiler to catch a wrong value: without this, a logger missing a method failed
 * half-way (a run record left `running`, or data committed and then the run "failed"), and a
 * number for a folder or no registry ended in a bare TypeError. Each refusal names the option and
 * what it was given.
 */
import { ConfigError } from '../core/errors.js';

const LOGGER_METHODS = ['debug', 'info', 'warn', 'error'] as const;

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  if (typeof value !== 'object') return `a ${typeof value} (${String(value)})`;
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== 'Object' ? `a ${name}` : 'an object';
}

function refuse(option: string, value: unknown, wanted: string): never {
  throw new ConfigError(`runPipeline: ${option} must be ${wanted}, and was given ${describe(value)}`);
}

function optionalString(options: Record<string, unknown>, name: string): void {
  const value = options[name];
  if (value === undefined) return;
  if (typeof value !== 'string' || value.trim() === '') refuse(`option ${name}`, value, 'a non-empty path');
}

export function checkRunOptions(options: unknown): void {
  if (options === null || typeof options !== 'object') refuse('its second argument', options, 'the options, such as { registry: components }');
  const o = options as Record<string, unknown>;
  if (!Array.isArray(o.registry)) refuse('option registry', o.registry, 'the component definitions (components, or your own list)');
  optionalString(o, 'outputDir');
  optionalString(o, 'stateDir');
  if (o.logger !== undefined) {
    const logger = o.logger as Record<string, unknown> | null;
    const missing = LOGGER_METHODS.filter((m) => typeof logger?.[m] !== 'function');
    if (logger === null || typeof logger !== 'object' || missing.length > 0) {
      refuse('option logger', o.logger, `createLogger() or an object with debug, info, warn and error (it has no ${missing.join(', ')})`);
    }
  }
  if (o.signal !== undefined && !(o.signal instanceof AbortSignal)) refuse('option signal', o.signal, 'an AbortSignal (AbortController.signal)');
  if (o.stdout !== undefined && typeof (o.stdout as { write?: unknown } | null)?.write !== 'function') refuse('option stdout', o.stdout, 'a writable stream');
  if (o.runId !== undefined) {
    const id = o.runId;
    // It names the run record and the files the run writes: one file name, never a path.
    if (typeof id !== 'string' || id === '' || id === '.' || id === '..' || /[/\\]/.test(id)) refuse('option runId', id, 'a single file name (without / or \\)');
  }
}
