/**
 * The files of the tests of a coordinator's Redis going away or restarting: a plans file for both
 * sides with a plan without a per-minute window (a restarted Redis's guard then holds for a slot's
 * lease, not a minute) for `token`, and an unthrottled one for `replay-token`'s reference runs; and
 * a 1m K-line backfill pipeline on the first plan with the given request timeouts (the lease).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startCli } from './cli.js';
import { startRecordingProxy, type RecordingProxy } from './recording-proxy.js';

export const REPLAY_TOKEN = 'replay-token';

export function minutelessPlansFile(dir: string, token: string): string {
  const file = join(dir, 'plans.yaml');
  writeFileSync(
    file,
    [
      'plans:',
      '  - name: minuteless',
      '    base: professional',
      '    perMinute: unlimited',
      '  - name: replay',
      '    perSecond: unlimited',
      '    perMinute: unlimited',
      '    perDay: unlimited',
      '    batchKlineGapMs: 0',
      '    suspensionGapMs: 0',
      'tokens:',
      `  - token: ${token}`,
      '    plan: minuteless',
      `  - token: ${REPLAY_TOKEN}`,
      '    plan: replay',
      '',
    ].join('\n'),
  );
  return file;
}

/** `<dir>/<name>.yaml`, reading the plans file of the same folder. */
export function minutelessPipelineFile(dir: string, name: string, codes: readonly string[], timeoutMs: number): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    [
      `name: ${name}`,
      'service:',
      '  plan: minuteless',
      '  plansFile: plans.yaml',
      '  timeouts:',
      `    connectMs: ${timeoutMs}`,
      `    headersMs: ${timeoutMs}`,
      `    bodyMs: ${timeoutMs}`,
      'source:',
      '  type: kline-history',
      `  codes: [${codes.join(', ')}]`,
      '  intervals: [1m]',
      'transforms:',
      '  - type: parse-decimals',
      'sink:',
      '  type: parquet',
      '',
    ].join('\n'),
  );
  return file;
}

/** `quotelake serve` on the plans file above (its clock running from `now`), behind a recording proxy. */
export interface ServedMinuteless {
  readonly emulatorUrl: string;
  readonly proxy: RecordingProxy;
  stop(): Promise<void>;
}

export async function serveMinuteless(dir: string, token: string, now: string): Promise<ServedMinuteless> {
  const served = startCli(['serve', '--port', '0', '--plans-file', minutelessPlansFile(dir, token), '--clock', now, '--clock-runs']);
  const emulatorUrl = (await served.waitForStderr(/quotelake emulator listening on (http:\/\/127\.0\.0\.1:\d+)\n/))[1]!;
  const proxy = await startRecordingProxy(emulatorUrl);
  return {
    emulatorUrl,
    proxy,
    async stop() {
      await proxy.close();
      served.child.kill('SIGTERM');
      await served.result;
    },
  };
}
