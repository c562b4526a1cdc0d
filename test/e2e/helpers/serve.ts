/** The emulator as a child `quotelake serve` process, as a user would run it. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startCli, tempDir, type CliProcess } from './cli.js';

export interface ServedEmulator {
  url: string;
  proc: CliProcess;
  stop(): Promise<void>;
}

/** Starts `quotelake serve --port 0` with extra professional-plan tokens from a plans file. */
export async function serveChild(tokens: readonly { token: string; plan: string; behaviours?: string; faults?: string }[], extra: string[] = []): Promise<ServedEmulator> {
  const dir = tempDir('ql-serve-');
  const plans = join(dir, 'plans.json');
  writeFileSync(plans, JSON.stringify({ tokens }));
  const proc = startCli(['serve', '--port', '0', '--plans-file', plans, ...extra]);
  const m = await proc.waitForStderr(/quotelake emulator listening on (http:\/\/127\.0\.0\.1:\d+)\n/);
  return {
    url: m[1]!,
    proc,
    stop: async () => {
      proc.child.kill('SIGTERM');
      await proc.result;
    },
  };
}
