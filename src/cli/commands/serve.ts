import type { Argv, CommandModule } from 'yargs';
import { ManualClock, shiftedClock, systemClock, type Clock } from '../../core/clock.js';
// The emulator loads with `serve` only (see resolveServeOptions): every other command's start-up
// would pay for its modules otherwise.
import type { BehaviourSpec } from '../../emulator/behaviours/behaviour-spec.js';
import type { FaultSpec } from '../../emulator/faults/fault-spec.js';
import type { EmulatorPlans } from '../../emulator/plans-file.js';
import { parseInstant } from '../clock-option.js';
import { handleInterrupts, stopGraceMs, type StopWords } from '../interrupts.js';
import { stopTimeoutOption, type StopArgs } from '../shared-options.js';
import { checkListenHost } from '../listen-host-check.js';
import { UsageError } from '../usage-error.js';
import { zoneGuess } from '../../core/iana-zone.js';

interface ServeArgs extends StopArgs {
  host: string;
  port: number;
  seed: number;
  clock?: string;
  'clock-runs'?: boolean;
  faults?: string;
  behaviours?: string;
  'plans-file'?: string;
  'quota-time-zone': string;
  limits: boolean;
}

/** The largest seed: the synthetic market's generators take 32 bits. */
const MAX_SEED = 4_294_967_295;

/** Turn the raw options into emulator options, or a UsageError naming the option. */
export async function resolveServeOptions(args: ServeArgs, env: NodeJS.ProcessEnv) {
  if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535) {
    throw new UsageError(`--port must be an integer 0..65535, got ${String(args.port)}`);
  }
  // Node would take an empty host for every interface: the emulator opened by an unset variable.
  if (args.host.trim() === '') throw new UsageError('--host needs an address (127.0.0.1 by default; 0.0.0.0 for every interface)');
  checkListenHost(args.host, '--host');
  // The synthetic market takes a 32-bit seed: a wider one would serve another seed's bytes unsaid.
  if (!Number.isInteger(args.seed) || args.seed < 0 || args.seed > MAX_SEED) throw new UsageError(`--seed must be an integer 0..${MAX_SEED}, got ${String(args.seed)}`);
  let clock: Clock = systemClock;
  if (args.clock !== undefined) {
    const ms = parseInstant(args.clock, '--clock');
    // The admin clock endpoint keeps the clock in this range: started outside it, every move would be refused.
    const { CLOCK_RANGE_TEXT, clockInBounds } = await import('../../emulator/clock-bounds.js');
    if (!clockInBounds(ms)) throw new UsageError(`--clock ${args.clock} is outside the emulator clock's range: give an instant between ${CLOCK_RANGE_TEXT}`);
    // A running clock lets the rate windows pass (workers paced against it); a frozen one does not.
    clock = args['clock-runs'] === true ? shiftedClock(ms) : new ManualClock(ms);
  } else if (args['clock-runs'] === true) {
    throw new UsageError('--clock-runs needs --clock (the instant the clock starts from)');
  }
  const [{ FaultSpecError, parseFaultSpec }, { BehaviourSpecError, parseBehaviourSpec }, { loadPlansFile, PlansFileError }] = await Promise.all([
    import('../../emulator/faults/fault-spec.js'),
    import('../../emulator/behaviours/behaviour-spec.js'),
    import('../../emulator/plans-file.js'),
  ]);
  const faultText = args.faults ?? env.QUOTELAKE_EMULATOR_FAULTS;
  let faults: FaultSpec | undefined;
  if (faultText !== undefined && faultText !== '') {
    try {
      faults = parseFaultSpec(faultText);
    } catch (e) {
      const from = args.faults !== undefined ? '--faults' : 'QUOTELAKE_EMULATOR_FAULTS';
      if (e instanceof FaultSpecError) throw new UsageError(`${from}: ${e.message}`);
      throw e;
    }
  }
  const behaviourText = args.behaviours ?? env.QUOTELAKE_EMULATOR_BEHAVIOURS;
  let behaviours: BehaviourSpec | undefined;
  if (behaviourText !== undefined && behaviourText !== '') {
    try {
      behaviours = parseBehaviourSpec(behaviourText);
    } catch (e) {
      const from = args.behaviours !== undefined ? '--behaviours' : 'QUOTELAKE_EMULATOR_BEHAVIOURS';
      if (e instanceof BehaviourSpecError) throw new UsageError(`${from}: ${e.message}`);
      throw e;
    }
  }
  // luxon (a quarter of a MB of source) loads with `serve` only, as the emulator does.
  const { IANAZone } = await import('luxon');
  if (!IANAZone.isValidZone(args['quota-time-zone'])) {
    throw new UsageError(`--quota-time-zone "${args['quota-time-zone']}" is not a known IANA time zone${zoneGuess(args['quota-time-zone'])}`);
  }
  let plans: EmulatorPlans = { customPlans: [], tokens: [] };
  if (args['plans-file'] !== undefined) {
    try {
      plans = await loadPlansFile(args['plans-file']);
    } catch (e) {
      // The hint of the client's commands: `serve --help` says nothing of what the file takes.
      if (e instanceof PlansFileError) {
        throw new UsageError(`--plans-file ${e.message}`, e.unreadable ? 'check the path given as --plans-file' : 'fix the plans file: README, "Plans file", says what it takes');
      }
      throw e;
    }
  }
  return {
    host: args.host,
    port: args.port,
    seed: args.seed,
    clock,
    ...(faults ? { faults } : {}),
    ...(behaviours ? { behaviours } : {}),
    plans: plans.tokens,
    customPlans: plans.customPlans,
    quotaTimeZone: args['quota-time-zone'],
    limits: args.limits,
  };
}

/**
 * A stopped emulator is a normal end (exit 0, what systemd and a test harness expect of a service
 * its operator stops), and it says nothing: its stderr holds the readiness line and nothing else.
 * Closing drops every open connection, so it is quick; if it hangs anyway, the watchdog ends the
 * process within the grace, as a second signal does at once.
 */
const SERVE_STOP_WORDS: StopWords = {
  stopping: () => undefined,
  hung: (sig, s) => `quotelake: ${sig}: the emulator did not close within ${s} s; exiting now`,
  again: (sig) => `quotelake: ${sig} again: exiting now`,
};

export const serveCommand: CommandModule<object, ServeArgs> = {
  command: 'serve',
  describe: 'Run the local emulator of the market-data query service',
  builder: (y: Argv<object>) =>
    stopTimeoutOption(y, 'close the listener and its connections')
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'Interface to listen on' })
      .option('port', { type: 'number', default: 0, describe: 'Port; 0 picks a free one' })
      .option('seed', { type: 'number', default: 1, describe: 'Seed of the synthetic data and of the fault draws' })
      .option('clock', {
        type: 'string',
        describe: 'Freeze the clock at this ISO instant (enables POST /_emulator/clock)',
      })
      .option('clock-runs', {
        type: 'boolean',
        describe: 'With --clock: start the clock at that instant and let it run (rate windows pass as in real time), instead of freezing it',
      })
      .option('faults', {
        type: 'string',
        describe:
          'Fault spec, e.g. latency=200ms@0.1,5xx=0.05,504=0.02,drop=0.02,429-untraced=0.05,retry-after=0.5 (default: $QUOTELAKE_EMULATOR_FAULTS)',
      })
      .option('behaviours', {
        type: 'string',
        describe:
          'Behaviours the service may show, e.g. short-pages=0.5,missing-bars=0.02,descending or all (default: $QUOTELAKE_EMULATOR_BEHAVIOURS)',
      })
      .option('plans-file', {
        type: 'string',
        describe:
          'JSON or YAML plans file: custom plans {plans: [{name, base?, perSecond?, perMinute?, perDay?, ...}]} (each with a demo token demo-<name>) and extra tokens {tokens: [{token, plan, faults?, behaviours?}]}',
      })
      .option('quota-time-zone', { type: 'string', default: 'UTC', describe: 'Zone whose midnight resets daily totals' })
      .option('limits', {
        type: 'boolean',
        default: true,
        describe: 'Enforce rate limits and daily totals (--no-limits is for benchmarks only)',
      })
      .example('$0 serve --port 8765', 'The emulator on http://127.0.0.1:8765 (token demo-professional, or demo-<plan>)')
      .example('$0 serve --port 8765 --clock 2026-11-20T00:00:00Z --clock-runs', 'Its clock starts at that instant, for a client run with the same --clock')
      .example("$0 serve --faults '5xx=0.05,drop=0.02' --behaviours short-pages=0.5", 'A service that fails now and then and answers short pages') as unknown as Argv<ServeArgs>,
  handler: async (args) => {
    const options = await resolveServeOptions(args, process.env);
    const graceMs = stopGraceMs(args['stop-timeout'], process.env);
    const { startEmulator } = await import('../../emulator/server.js');
    const emu = await startEmulator(options).catch((e: unknown) => {
      // The host to listen on, not a service to reach: the general words name --base-url.
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
        throw new UsageError(`--host ${options.host} is not known (${code}: the name does not resolve)`, 'choose a --host this machine has (127.0.0.1, 0.0.0.0 or one of its interfaces)');
      }
      throw e;
    });
    const interrupts = handleInterrupts((line) => void process.stderr.write(`${line}\n`), { graceMs, words: SERVE_STOP_WORDS });
    try {
      process.stderr.write(`quotelake emulator listening on ${emu.url}\n`);
      const { signal } = interrupts;
      await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
      await emu.close();
    } finally {
      interrupts.dispose();
    }
  },
};
