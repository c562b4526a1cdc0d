import { describe, expect, it } from 'vitest';
import { requestScopeOf, scopedSignal } from '../../src/core/request-scope.js';

describe('scopedSignal', () => {
  it('carries its scope, aborts with the run, and takes a stream\'s requests in flight without a leak warning', async () => {
    const run = new AbortController();
    const scope = { sent: () => undefined };
    const signal = scopedSignal(run.signal, scope);
    expect(requestScopeOf(signal)).toBe(scope);
    expect(requestScopeOf(run.signal)).toBeUndefined();
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    const listeners = Array.from({ length: 20 }, () => () => undefined);
    for (const l of listeners) signal.addEventListener('abort', l);
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', onWarning);
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    run.abort();
    expect(signal.aborted).toBe(true);
  });
});
