import { describe, expect, it } from 'vitest';
import { FaultInjector } from '../../../src/emulator/faults/fault-injector.js';
import { NO_FAULTS, parseFaultSpec } from '../../../src/emulator/faults/fault-spec.js';

describe('parseFaultSpec', () => {
  it('parses the documented syntax', () => {
    expect(parseFaultSpec('latency=200ms@0.1,5xx=0.05,drop=0.02,truncate=0.02,429=0.05,drip=0.01')).toEqual({
      latency: { ms: 200, rate: 0.1 },
      http5xx: 0.05,
      drop: 0.02,
      truncate: 0.02,
      spurious429: 0.05,
      drip: { ms: 20, rate: 0.01 },
      http504: 0,
      untraced429: 0,
      haltBusy: 0,
      retryAfter: 0,
    });
    expect(parseFaultSpec('latency=1.5s, drip=5ms@1')).toMatchObject({ latency: { ms: 1500, rate: 1 }, drip: { ms: 5, rate: 1 } });
    expect(parseFaultSpec('')).toEqual(NO_FAULTS);
  });
  it('names the bad part', () => {
    expect(() => parseFaultSpec('5xx=0.1,drop=2')).toThrow(/"drop=2".*outside 0..1/);
    expect(() => parseFaultSpec('lag=0.1')).toThrow(/"lag=0.1".*unknown fault/);
    expect(() => parseFaultSpec('latency=fast')).toThrow(/"latency=fast".*200ms/);
    expect(() => parseFaultSpec('drop')).toThrow(/"drop".*name=value/);
    expect(() => parseFaultSpec('drop=0.1,drop=0.2')).toThrow(/given twice/);
    expect(() => parseFaultSpec('429=abc')).toThrow(/"429=abc".*not a number/);
    // drip alone takes a rate; a duration it cannot read is named as a duration, not as a rate.
    expect(() => parseFaultSpec('drip=-5ms')).toThrow('invalid fault spec part "drip=-5ms": duration "-5ms" must look like 200ms or 1.5s (or a rate alone, as in drip=0.01)');
    expect(() => parseFaultSpec('drip=20 sec')).toThrow(/"drip=20 sec": duration "20 sec" must look like/);
    expect(() => parseFaultSpec('drip=abc')).toThrow(/"drip=abc": duration "abc"/);
    expect(parseFaultSpec('drip=0.25').drip).toEqual({ ms: 20, rate: 0.25 });
  });
});

describe('FaultInjector', () => {
  it('is reproducible from the seed and roughly honours the rates', () => {
    const spec = parseFaultSpec('5xx=0.1,drop=0.1,truncate=0.1,429=0.1');
    const a = new FaultInjector(spec, 7);
    const b = new FaultInjector(spec, 7);
    const c = new FaultInjector(spec, 8);
    const seqA = Array.from({ length: 2000 }, () => a.decide().kind);
    const seqB = Array.from({ length: 2000 }, () => b.decide().kind);
    const seqC = Array.from({ length: 2000 }, () => c.decide().kind);
    expect(seqA).toEqual(seqB);
    expect(seqA).not.toEqual(seqC);
    const drops = seqA.filter((k) => k === 'drop').length;
    expect(drops).toBeGreaterThan(140);
    expect(drops).toBeLessThan(260);
    expect(seqA.filter((k) => k === 'none').length).toBeGreaterThan(1100);
  });
});
