/**
 * Probe objects a killed run left are removed once older than a lease; a probe in flight (young)
 * and anything outside `_quotelake/probe/` stay. The store stamps objects with real time, so "now"
 * is real time moved ahead, on both backends.
 */
import { describe, expect, it } from 'vitest';
import { localStorage } from '../../src/lake/storage/local-storage.js';
import { removeStaleProbes } from '../../src/lake/stale-probes.js';
import { BACKENDS, useTestLakes } from './test-lakes.js';

describe.each(BACKENDS)('removeStaleProbes (%s)', (backend) => {
  const lakes = useTestLakes(backend);

  it('deletes only probes written more than a lease ago', async () => {
    const out = await lakes.fresh();
    const storage = lakes.storage(out) ?? localStorage(out);
    await lakes.write(out, '_quotelake/probe/write-r1', 'quotelake write probe\n');
    await lakes.write(out, '_quotelake/probe/conditional-create-lease-r2', 'probe');
    await lakes.write(out, '_quotelake/manifests/kline.parquet.json', '{}');
    expect(await removeStaleProbes(storage, Date.now(), 60_000)).toBe(0);
    expect(await lakes.keys(out, '_quotelake/probe')).toEqual(['conditional-create-lease-r2', 'write-r1']);
    expect(await removeStaleProbes(storage, Date.now() + 61_000, 60_000)).toBe(2);
    expect(await lakes.keys(out)).toEqual(['_quotelake/manifests/kline.parquet.json']);
  });
});
