/**
 * A span back from now is a number of m, h, d or w. `1y`, `6mo`, `6M` and `90D` were refused with
 * words that named no unit; now each says the units, and `6M` both meanings (6m is six minutes here),
 * in a pipeline file and on the command line alike, exit 2 before any request.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/cli.js';

const UNITS = 'is no span: a span back from now is a whole number of m (minutes), h (hours), d (days) or w (weeks)';

/** A dead service: a request would fail with exit 1, so exit 2 shows the check came first. */
const SERVICE = ['--base-url', 'http://127.0.0.1:9', '--token', 'demo-professional', '--plan', 'professional'];

describe('since and until as spans', () => {
  it('a year, a month or an upper-case unit is refused with the units and the days to write', async () => {
    const dir = tempDir('ql-span-');
    const file = join(dir, 'p.yaml');
    writeFileSync(file, 'name: t\nsource:\n  type: kline-history\n  codes: [BTCUSDT]\n  intervals: [1h]\n  since: 1y\n  until: 90D\ntransforms:\n  - type: parse-decimals\nsink:\n  type: parquet\n');
    const [validate, flag] = await Promise.all([runCli(['validate', file]), runCli(['run', 'kline-backfill', '--since', '6M', '--output', join(dir, 'out'), ...SERVICE])]);
    expect(validate.code, validate.stderr).toBe(2);
    expect(validate.stderr).toContain(`${file}:6:10: source.since: "1y" ${UNITS}; for years write days, e.g. 365d\n`);
    expect(validate.stderr).toContain(`${file}:7:10: source.until: "90D" ${UNITS}, in lower case; write 90d\n`);
    expect(flag.code, flag.stderr).toBe(2);
    expect(flag.stderr).toContain(`source.since: "6M" ${UNITS}; 6m would be 6 minutes; for months write days, e.g. 180d\n`);
  });
});
