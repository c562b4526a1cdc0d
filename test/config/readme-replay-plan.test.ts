/**
 * The replay plan README's "Plans file" shows, and examples/plans-replay.yaml, are what README
 * calls them: an unthrottled replay. Read by the client's own parser, the plan paces nothing, the
 * suspension endpoints' minute included (a plan not given a limit keeps its base's: a replay
 * without `suspensionGapMs: 0` made a second trading-halts run against `serve` wait ~60 s).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { pacesAnything, planLimits } from '../../src/api/plans.js';
import { parsePlansDocument } from '../../src/core/plans-file.js';

const README = fileURLToPath(new URL('../../README.md', import.meta.url));
const EXAMPLE = fileURLToPath(new URL('../../examples/plans-replay.yaml', import.meta.url));

/** The first ```yaml block after the heading "#### Plans file". */
function readmePlansBlock(): string {
  const text = readFileSync(README, 'utf8');
  const section = text.slice(text.indexOf('\n#### Plans file\n'));
  const block = /```yaml\n([\s\S]*?)```/.exec(section);
  if (block === null) throw new Error('README: no yaml block under "#### Plans file"');
  return block[1]!;
}

describe('the replay plan of README and examples/', () => {
  it.each([
    ['README "Plans file"', () => readmePlansBlock()],
    ['examples/plans-replay.yaml', () => readFileSync(EXAMPLE, 'utf8')],
  ])('%s: replay lifts every limit, suspension gap included', (where, text) => {
    const limits = planLimits('replay', parsePlansDocument(where, parse(text())));
    expect(limits.suspensionGapMs).toBe(0);
    expect(limits.batchKlineGapMs).toBe(0);
    expect(pacesAnything(limits)).toBe(false);
  });
});
