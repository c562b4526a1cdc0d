import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const MAIN = fileURLToPath(new URL('../../dist/cli/quotelake.js', import.meta.url));
const READY = /^quotelake emulator listening on http:\/\/127\.0\.0\.1:(\d+)$/;

interface Proc {
  child: ChildProcessWithoutNullStreams;
  stdout: string;
  stderr: string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const procs: Proc[] = [];
afterEach(() => {
  for (const p of procs.splice(0)) if (p.child.exitCode === null) p.child.kill('SIGKILL');
});

function run(args: string[], env: Record<string, string> = {}): Proc {
  const child = spawn(process.execPath, [MAIN, ...args], { env: { ...process.env, ...env } });
  const p: Proc = {
    child,
    stdout: '',
    stderr: '',
    // 'close', not 'exit': a child's last stderr may still be unread when it has exited.
    exit: new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal }))),
  };
  child.stdout.on('data', (d) => (p.stdout += d.toString()));
  child.stderr.on('data', (d) => (p.stderr += d.toString()));
  procs.push(p);
  return p;
}

/** Resolves with the base URL once the first stderr line is complete (event-driven, no polling). */
function ready(p: Proc): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (!p.stderr.includes('\n')) return;
      p.child.stderr.off('data', check);
      const m = READY.exec(p.stderr.split('\n')[0] ?? '');
      if (m) resolve(`http://127.0.0.1:${m[1]}`);
      else reject(new Error(`unexpected stderr: ${p.stderr}`));
    };
    p.child.stderr.on('data', check);
    p.child.on('exit', (code) => reject(new Error(`exited ${code}: ${p.stderr}`)));
    check();
  });
}

describe('quotelake serve (built CLI as a child process)', () => {
  it('prints the readiness line once, serves on a free port, exits 0 on SIGTERM', async () => {
    const p = run(['serve', '--port', '0', '--clock', '2026-03-02T15:00:00Z', '--seed', '7']);
    const url = await ready(p);
    const clock = await fetch(`${url}/_emulator/clock`).then((r) => r.json());
    expect(clock).toEqual({ now: '2026-03-02T15:00:00.000Z', nowMs: Date.parse('2026-03-02T15:00:00Z') });
    const s = await fetch(`${url}/api/suspension/nyse?token=demo-basic`);
    expect(s.status).toBe(200);
    const body = (await s.json()) as { success: boolean; timestamp: string; totalCount: number };
    expect(body.success).toBe(true);
    expect(body.timestamp).toBe('2026-03-02T15:00:00');
    // basic is 1 per second on a frozen clock: the same instant is rate limited, 1 s later is not
    const kq = `${url}/quote-stock-b-api/kline?token=demo-basic&query=${encodeURIComponent(
      JSON.stringify({ trace: 'e2e', data: { code: 'AAPL.US', kline_type: 8, kline_timestamp_end: 0, query_kline_num: 2, adjust_type: 0 } }),
    )}`;
    expect(((await fetch(kq).then((r) => r.json())) as { ret: number }).ret).toBe(429);
    const moved = await fetch(`${url}/_emulator/clock`, { method: 'POST', body: JSON.stringify({ advanceMs: 1000 }) });
    expect(((await moved.json()) as { now: string }).now).toBe('2026-03-02T15:00:01.000Z');
    const k = (await fetch(kq).then((r) => r.json())) as { ret: number; trace: string };
    expect(k).toMatchObject({ ret: 200, trace: 'e2e' });
    p.child.kill('SIGTERM');
    expect(await p.exit).toEqual({ code: 0, signal: null });
    expect(p.stdout).toBe('');
    expect(p.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('a plans file whose token YAML reads as a number: exit 2 naming the field and the fix, nothing listens', async () => {
    const plans = join(mkdtempSync(join(tmpdir(), 'ql-serve-')), 'plans.yaml');
    writeFileSync(plans, 'tokens:\n  - token: 0012345\n    plan: basic\n');
    const p = run(['serve', '--plans-file', plans]);
    expect((await p.exit).code).toBe(2);
    expect(p.stderr).toContain(`--plans-file ${plans}: tokens[0].token: must be text; quote a token YAML would read as a number, as in token: "0012345", got a number`);
    expect(p.stderr).not.toMatch(/listening|Invalid input/);
  });

  it('a plans file moving a demo token to another plan: exit 2 (a client paces demo-free as Free)', async () => {
    const plans = join(mkdtempSync(join(tmpdir(), 'ql-serve-')), 'plans.yaml');
    writeFileSync(plans, 'tokens:\n  - token: demo-free\n    plan: professional\n');
    const p = run(['serve', '--plans-file', plans]);
    expect((await p.exit).code).toBe(2);
    expect(p.stderr).toContain(`--plans-file ${plans}: tokens[0].plan: demo-free is always on plan free, not professional: give this entry a token of its own`);
    expect(p.stderr).not.toMatch(/listening/);
  });

  it('a plans file with a limit past 2^53: exit 2 in the file\'s words, not zod\'s', async () => {
    const plans = join(mkdtempSync(join(tmpdir(), 'ql-serve-')), 'plans.yaml');
    writeFileSync(plans, 'plans:\n  - name: big\n    perDay: 1e20\n');
    const p = run(['serve', '--plans-file', plans]);
    expect((await p.exit).code).toBe(2);
    expect(p.stderr).toContain(`--plans-file ${plans}: plans[0].perDay: must be a whole number above 0, or "unlimited", got 100000000000000000000`);
    expect(p.stderr).not.toMatch(/listening|Too big/);
  });

  it('SIGINT also exits 0; a plans file adds tokens', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ql-serve-'));
    const plans = join(dir, 'plans.yaml');
    writeFileSync(plans, 'tokens:\n  - token: extra-token\n    plan: all-cn\n');
    const p = run(['serve', '--plans-file', plans]);
    const url = await ready(p);
    expect((await fetch(`${url}/api/suspension/sse?token=extra-token`)).status).toBe(200);
    expect((await fetch(`${url}/api/suspension/nyse?token=extra-token`)).status).toBe(500);
    expect((await fetch(`${url}/_emulator/clock`)).status).toBe(404); // system clock: no admin endpoint
    p.child.kill('SIGINT');
    expect((await p.exit).code).toBe(0);
  });

  it('a plans file with custom plans: each has its demo token, tokens may use them, unlimited lifts the gaps', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ql-serve-'));
    const plans = join(dir, 'plans.yaml');
    writeFileSync(
      plans,
      'plans:\n  - name: replay\n    perSecond: unlimited\n    perMinute: unlimited\n    perDay: unlimited\n    suspensionGapMs: 0\n  - name: hk-only\n    market: HK\ntokens:\n  - token: hk-token\n    plan: hk-only\n',
    );
    const p = run(['serve', '--plans-file', plans]);
    const url = await ready(p);
    // Professional allows one SSE request a minute; the replay plan any number at once.
    const codes = await Promise.all(Array.from({ length: 30 }, () => fetch(`${url}/api/suspension/sse?token=demo-replay`).then((r) => r.status)));
    expect(codes).toEqual(Array.from({ length: 30 }, () => 200));
    // An HK-only plan has no SSE halts (its market), for its demo token and for a token on it.
    for (const token of ['demo-hk-only', 'hk-token']) expect((await fetch(`${url}/api/suspension/sse?token=${token}`)).status).toBe(500);
    expect((await fetch(`${url}/api/suspension/sse?token=demo-professional`)).status).toBe(200);
    expect((await fetch(`${url}/api/suspension/sse?token=demo-professional`)).status).toBe(500);
    p.child.kill('SIGTERM');
    expect((await p.exit).code).toBe(0);
  });

  it('takes faults from QUOTELAKE_EMULATOR_FAULTS when --faults is absent', async () => {
    const p = run(['serve', '--seed', '5'], { QUOTELAKE_EMULATOR_FAULTS: '5xx=1' });
    const url = await ready(p);
    const r = await fetch(`${url}/api/suspension/sse?token=demo-basic`);
    expect([502, 503]).toContain(r.status);
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    p.child.kill('SIGTERM');
    expect((await p.exit).code).toBe(0);
  });

  it('takes behaviours from --behaviours, else QUOTELAKE_EMULATOR_BEHAVIOURS', async () => {
    const query = encodeURIComponent(
      JSON.stringify({ trace: 't', data: { code: 'BTCUSDT', kline_type: 1, kline_timestamp_end: 0, query_kline_num: 3, adjust_type: 0 } }),
    );
    const order = async (args: string[], env: Record<string, string>): Promise<number[]> => {
      const p = run(['serve', '--clock', '2026-03-04T12:00:00Z', ...args], env);
      const url = await ready(p);
      const r = (await (await fetch(`${url}/quote-b-api/kline?token=demo-basic&query=${query}`)).json()) as {
        data: { kline_list: { timestamp: string }[] };
      };
      p.child.kill('SIGTERM');
      expect((await p.exit).code).toBe(0);
      return r.data.kline_list.map((k) => Number(k.timestamp));
    };
    const down = await order(['--behaviours', 'descending'], { QUOTELAKE_EMULATOR_BEHAVIOURS: 'none' });
    expect(down).toEqual([...down].sort((a, b) => b - a));
    expect(await order([], { QUOTELAKE_EMULATOR_BEHAVIOURS: 'descending' })).toEqual(down);
  });

  it('--no-limits: /_emulator/usage and /arrivals say that no counters are kept, rather than a bare null', async () => {
    const p = run(['serve', '--port', '0', '--clock', '2026-03-02T15:00:00Z', '--no-limits']);
    const url = await ready(p);
    // A request the limits would have counted: with them off there is nothing to count it in.
    expect((await fetch(`${url}/api/suspension/nyse?token=demo-basic`)).status).toBe(200);
    const [usage, arrivals] = await Promise.all(['usage', 'arrivals'].map((what) => fetch(`${url}/_emulator/${what}?token=demo-basic`).then((r) => r.json())));
    expect(usage).toEqual({ token: 'demo…', known: true, usage: null, note: 'limits are off (serve --no-limits): no counters are kept' });
    expect(arrivals).toEqual({ token: 'demo…', known: true, arrivals: null, note: 'limits are off (serve --no-limits): no arrivals are recorded' });
  });

  it('SIGTERM with a request in flight: the connection is dropped, exit 0 at once, nothing more on stderr', async () => {
    // Every answer held for a minute: the stop must not wait for it.
    const p = run(['serve', '--faults', 'latency=60s@1']);
    const url = await ready(p);
    const pending = fetch(`${url}/api/suspension/sse?token=demo-basic`).then(
      (r) => r.status,
      (e: unknown) => e,
    );
    // Time for the request to reach the server and be held there before the signal.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const sent = Date.now();
    p.child.kill('SIGTERM');
    expect(await p.exit).toEqual({ code: 0, signal: null });
    // Well inside the 4 s grace: closing drops the held connection rather than waiting a minute for it.
    expect(Date.now() - sent).toBeLessThan(4000);
    expect(await pending).toBeInstanceOf(Error);
    expect(p.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('--stop-timeout must be a positive number of seconds (exit 2, nothing listens)', async () => {
    const p = run(['serve', '--stop-timeout', '0']);
    expect((await p.exit).code).toBe(2);
    expect(p.stderr).toMatch(/--stop-timeout/);
    expect(p.stderr).not.toMatch(/listening/);
  });

  it('a multicast or broadcast --host is exit 2 before listening: no client could reach the emulator there', async () => {
    const hosts = ['224.0.0.1', '239.255.255.250', '255.255.255.255', '::ffff:224.0.0.1', 'ff02::1'];
    const results = await Promise.all(
      hosts.map(async (host) => {
        const p = run(['serve', '--host', host]);
        return [(await p.exit).code, p.stderr];
      }),
    );
    const hint = '  hint: choose an address of this machine (127.0.0.1 by default; 0.0.0.0 for every interface)\n';
    expect(results).toEqual([
      [2, `quotelake: --host 224.0.0.1 is a multicast address (224.0.0.0/4): no client can connect to it\n${hint}`],
      [2, `quotelake: --host 239.255.255.250 is a multicast address (224.0.0.0/4): no client can connect to it\n${hint}`],
      [2, `quotelake: --host 255.255.255.255 is the broadcast address: no client can connect to it\n${hint}`],
      [2, `quotelake: --host ::ffff:224.0.0.1 is a multicast address (224.0.0.0/4): no client can connect to it\n${hint}`],
      [2, `quotelake: --host ff02::1 is a multicast address (ff00::/8): no client can connect to it\n${hint}`],
    ]);
  }, 15_000);

  it('usage errors exit 2 with a clear message and no readiness line', async () => {
    const cases: [string[], Record<string, string>, RegExp][] = [
      [['serve', '--bogus'], {}, /Unknown argument: bogus/],
      [['serve', '--clock', 'yesterday'], {}, /--clock must be an ISO instant/],
      // Date.parse would take it as March 2.
      [['serve', '--clock', '2026-02-30T00:00:00Z'], {}, /--clock must be an ISO instant such as 2026-03-04T15:00:00Z \(UTC unless it names an offset\), got "2026-02-30T00:00:00Z"/],
      // The admin clock keeps to 1970..2100: a clock started outside could never be moved.
      [['serve', '--clock', '1960-01-01T00:00:00Z'], {}, /--clock 1960-01-01T00:00:00Z is outside the emulator clock's range: give an instant between 1970-01-01 and 2100-01-01/],
      [['serve', '--clock', '2200-01-01T00:00:00Z', '--clock-runs'], {}, /--clock 2200-01-01T00:00:00Z is outside the emulator clock's range/],
      [['serve', '--faults', 'drop=2'], {}, /invalid fault spec part "drop=2"/],
      [['serve', '--faults', 'drip=-5ms'], {}, /--faults: invalid fault spec part "drip=-5ms": duration "-5ms" must look like 200ms or 1\.5s \(or a rate alone, as in drip=0\.01\)/],
      [['serve'], { QUOTELAKE_EMULATOR_FAULTS: 'lag=1' }, /QUOTELAKE_EMULATOR_FAULTS: invalid fault spec part "lag=1"/],
      [['serve', '--behaviours', 'descending,sideways'], {}, /--behaviours: invalid behaviour spec part "sideways": unknown behaviour/],
      [['serve'], { QUOTELAKE_EMULATOR_BEHAVIOURS: 'short-pages=3' }, /QUOTELAKE_EMULATOR_BEHAVIOURS: invalid behaviour spec part "short-pages=3"/],
      [['serve', '--plans-file', '/nonexistent/p.yaml'], {}, /\/nonexistent\/p\.yaml: cannot read/],
      [['serve', '--quota-time-zone', 'Nowhere/Land'], {}, /Nowhere\/Land/],
      [['serve', '--port', '70000'], {}, /--port/],
      // Node would listen on every interface: an unset variable in `--host "$HOST"` must not open it.
      [['serve', '--host', ''], {}, /--host needs an address \(127\.0\.0\.1 by default; 0\.0\.0\.0 for every interface\)/],
      [['serve', '--host', ' '], {}, /--host needs an address/],
      // A link-local IPv6 address without its zone cannot be bound: the host's fault (exit 2), not "a bug in quotelake".
      [['serve', '--host', 'fe80::1'], {}, /^quotelake: cannot listen on fe80::1\S* \((EINVAL|EAFNOSUPPORT): this machine cannot bind that address\)\n  hint: choose a --host this machine has .*fe80::1%eth0\n$/],
      // The market takes 32 bits: 4294967297 would serve seed 1's bars, -1 those of 4294967295.
      [['serve', '--seed', '4294967297'], {}, /--seed must be an integer 0\.\.4294967295, got 4294967297/],
      [['serve', '--seed=-1'], {}, /--seed must be an integer 0\.\.4294967295, got -1/],
      [[], {}, /Name a command/],
    ];
    await Promise.all(
      cases.map(async ([args, env, re]) => {
        const p = run(args, env);
        expect((await p.exit).code).toBe(2);
        expect(p.stderr).toMatch(re);
        expect(p.stderr).not.toMatch(/listening/);
      }),
    );
  });

  it('--help and --version', async () => {
    const h = run(['serve', '--help']);
    expect((await h.exit).code).toBe(0);
    for (const opt of ['--host', '--port', '--seed', '--clock', '--faults', '--behaviours', '--plans-file', '--quota-time-zone']) {
      expect(h.stdout).toContain(opt);
    }
    const v = run(['--version']);
    expect((await v.exit).code).toBe(0);
    expect(v.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
