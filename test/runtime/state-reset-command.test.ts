/** The `state reset` a refusal's hint names reaches the same checkpoints when pasted: output, state folder, store. */
import { describe, expect, it } from 'vitest';
import { stateResetCommand } from '../../src/runtime/state-reset-command.js';

describe('stateResetCommand', () => {
  it('names the output, a state folder of its own, and the endpoint of a store that is not AWS', () => {
    expect(stateResetCommand('kline-backfill', 'output')).toBe('quotelake state reset kline-backfill --output output');
    expect(stateResetCommand('kline-backfill', 'output', 'output/.state')).toBe('quotelake state reset kline-backfill --output output');
    expect(stateResetCommand('kline-backfill', '/data/lake', '/var/lib/ql state')).toBe("quotelake state reset kline-backfill --output /data/lake --state-dir '/var/lib/ql state'");
    expect(stateResetCommand('kline-backfill', 's3://lake/prod', undefined, 'http://127.0.0.1:9000')).toBe('quotelake state reset kline-backfill --output s3://lake/prod --s3-endpoint http://127.0.0.1:9000');
  });
});
