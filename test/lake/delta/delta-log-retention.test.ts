/** A table's log-cleanup rule as its configuration states it, and Delta's interval values. */
import { describe, expect, it } from 'vitest';
import { logCleanupRule, parseDeltaInterval } from '../../../src/lake/delta/delta-log-retention.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('parseDeltaInterval', () => {
  it('reads the intervals Delta writes, in every unit but months and years', () => {
    expect(parseDeltaInterval('interval 30 days')).toBe(30 * DAY);
    expect(parseDeltaInterval('interval 1 day')).toBe(DAY);
    expect(parseDeltaInterval('INTERVAL 2 Weeks')).toBe(14 * DAY);
    expect(parseDeltaInterval('interval 1 day 12 hours')).toBe(DAY + 12 * HOUR);
    expect(parseDeltaInterval('  interval   90 minutes ')).toBe(90 * 60_000);
    expect(parseDeltaInterval('7 days')).toBe(7 * DAY);
    expect(parseDeltaInterval('interval 0 days')).toBe(0);
    expect(parseDeltaInterval('interval 1500 milliseconds')).toBe(1500);
    expect(parseDeltaInterval('interval 2000000 microseconds')).toBe(2000);
  });

  it('refuses what it cannot measure exactly', () => {
    for (const text of ['interval 1 month', 'interval 1 year', 'interval -1 days', 'interval 1.5 days', 'interval days', 'interval', '', '30', 'thirty days', 'interval 1 fortnight']) {
      expect(parseDeltaInterval(text), text).toBeUndefined();
    }
  });
});

describe('logCleanupRule', () => {
  it("defaults to cleaning at Delta's 30 days", () => {
    expect(logCleanupRule({})).toEqual({ clean: true, retentionMs: 30 * DAY });
    expect(logCleanupRule({ 'delta.enableExpiredLogCleanup': 'TRUE' })).toEqual({ clean: true, retentionMs: 30 * DAY });
  });

  it("takes the table's retention", () => {
    expect(logCleanupRule({ 'delta.logRetentionDuration': 'interval 90 days', 'delta.appendOnly': 'false' })).toEqual({ clean: true, retentionMs: 90 * DAY });
  });

  it('cleans nothing when turned off, or when a value cannot be read', () => {
    expect(logCleanupRule({ 'delta.enableExpiredLogCleanup': 'false', 'delta.logRetentionDuration': 'interval 1 day' })).toEqual({ clean: false, why: 'delta.enableExpiredLogCleanup is false' });
    expect(logCleanupRule({ 'delta.enableExpiredLogCleanup': 'no' })).toEqual({ clean: false, why: 'delta.enableExpiredLogCleanup "no" is neither true nor false' });
    expect(logCleanupRule({ 'delta.logRetentionDuration': 'interval 1 month' })).toEqual({
      clean: false,
      why: 'delta.logRetentionDuration "interval 1 month" is not an interval quotelake reads (e.g. "interval 30 days")',
    });
  });
});
