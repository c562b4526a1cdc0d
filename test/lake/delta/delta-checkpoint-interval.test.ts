/** A table's checkpoint interval as its configuration states it (`delta.checkpointInterval`). */
import { describe, expect, it } from 'vitest';
import { checkpointIntervalOf } from '../../../src/lake/delta/delta-checkpoint-interval.js';

describe('checkpointIntervalOf', () => {
  it("defaults to Delta's 10", () => {
    expect(checkpointIntervalOf(undefined)).toBe(10);
    expect(checkpointIntervalOf({})).toBe(10);
    expect(checkpointIntervalOf({ 'delta.checkpointInterval': null })).toBe(10);
  });

  it("takes the table's own", () => {
    expect(checkpointIntervalOf({ 'delta.checkpointInterval': '2' })).toBe(2);
    expect(checkpointIntervalOf({ 'delta.checkpointInterval': ' 100 ', 'delta.appendOnly': 'false' })).toBe(100);
  });

  it('keeps the default for a value that is not a positive whole number (Spark refuses such a value when it is set)', () => {
    for (const text of ['0', '-5', '2.5', '1e3', 'ten', '', '0010', '99999999999']) {
      expect(checkpointIntervalOf({ 'delta.checkpointInterval': text }), text).toBe(10);
    }
  });
});
