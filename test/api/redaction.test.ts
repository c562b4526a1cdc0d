import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient, manualSleep, redactText, redactToken, redactUrl, type RequestInfo } from '../../src/api/index.js';
import { startWorld, type World } from './helpers/emulator.js';

const SECRET = 'SuperSecretToken-9f8e7d6c5b4a';
const WRONG = 'WrongSecretToken-1a2b3c4d5e6f';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
  vi.restoreAllMocks();
});

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const name of await readdir(dir)) {
    const path = join(dir, name);
    if ((await stat(path)).isDirectory()) out.push(...(await filesUnder(path)));
    else out.push(path);
  }
  return out;
}

/** Everything an error can show: message, stack, own fields and the whole cause chain. */
function dumpError(error: unknown): string {
  const parts = [String(error), inspect(error, { depth: 10, showHidden: true })];
  let e: unknown = error;
  while (e instanceof Error) {
    parts.push(e.message, e.stack ?? '', JSON.stringify(e));
    e = e.cause;
  }
  return parts.join('\n');
}

describe('the token never leaks', () => {
  it('redaction helpers', () => {
    expect(redactToken(SECRET)).toBe('Supe…');
    expect(redactUrl(`http://h/x?token=${SECRET}&query=%7B%7D`)).toBe('http://h/x?token=Supe%E2%80%A6&query=%7B%7D');
    expect(redactUrl(`http://me:${SECRET}@h/x?token=${SECRET}`)).toBe('http://me:***@h/x?token=Supe%E2%80%A6');
    expect(redactUrl('redis://:pw@10.0.0.5:6379/0')).toBe('redis://:***@10.0.0.5:6379/0');
    expect(redactUrl('rediss://onlysecret@h:6380')).toBe('rediss://***@h:6380');
    // An S3 URL's user is an access key id: it goes with the secret.
    expect(redactUrl('s3://AKIAEXAMPLEKEY:secretValue@lake/x')).toBe('s3://***@lake/x');
    expect(redactUrl('http://h/path@x')).toBe('http://h/path@x');
    // Not a URL: nothing before its last `@` is shown (where a password ends cannot be told).
    expect(redactUrl('redis//:pw@10.0.0.5:6379')).toBe('***@10.0.0.5:6379');
    expect(redactUrl(`me:${SECRET}@h:6379/0`)).toBe('***@h:6379/0');
    expect(redactUrl('not a url')).toBe('not a url');
    // Any case of the key, and a token in the fragment, are masked too.
    expect(redactUrl(`http://h/x?TOKEN=${SECRET}#Token=${SECRET}`)).toBe('http://h/x?TOKEN=Supe%E2%80%A6#Token=Supe%E2%80%A6');
    expect(redactText(`a ${SECRET} b ${encodeURIComponent('t/k+n=1-abcdef')}`, SECRET)).toBe('a Supe… b t%2Fk%2Bn%3D1-abcdef');
    expect(redactText(`x ${encodeURIComponent('t/k+n=1-abcdef')}`, 't/k+n=1-abcdef')).toBe('x t/k+…');
  });

  it('a failing and a succeeding workload: nothing printed, thrown, reported or written holds it', async () => {
    const printed: string[] = [];
    const capture = (chunk: unknown) => {
      printed.push(String(chunk));
      return true;
    };
    vi.spyOn(process.stdout, 'write').mockImplementation(capture as typeof process.stdout.write);
    vi.spyOn(process.stderr, 'write').mockImplementation(capture as typeof process.stderr.write);
    for (const level of ['log', 'error', 'warn', 'info', 'debug'] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' ')));
    }
    world = await startWorld({
      plans: [
        { token: SECRET, plan: 'professional', faults: '5xx=0.2,drop=0.2,truncate=0.2,429=0.2' },
      ],
      log: (line) => printed.push(line),
    });
    const infos: RequestInfo[] = [];
    const thrown: unknown[] = [];
    const good = world.client('professional', { token: SECRET, retry: { attempts: 3 } });
    const bad = world.client('professional', { token: WRONG });
    const deadClient = createClient({
      baseUrl: 'http://127.0.0.1:9/base',
      token: SECRET,
      plan: 'professional',
      stateDir: world.stateDir,
      clock: world.clock,
      sleep: manualSleep(world.clock),
      retry: { attempts: 2 },
      onRequest: (i) => infos.push(i),
    });
    const attempt = async (work: () => Promise<unknown>) => {
      try {
        printed.push(inspect(await work(), { depth: 10 }));
      } catch (error) {
        thrown.push(error);
      }
    };
    for (let i = 0; i < 10; i++) {
      await attempt(() => good.client.kline({ code: 'BTCUSDT', klineType: 1, count: 2 }));
      await attempt(() => good.client.tradeTicks(['AAPL.US', 'NOPE.US', 'EURUSD']));
    }
    await attempt(() => good.client.kline({ code: 'AAPL.US', klineType: 6, count: 2 }));
    await attempt(() => good.client.halts('sse', { page: 0, size: 1 }));
    await attempt(() => bad.client.kline({ code: 'EURUSD', klineType: 1, count: 1 }));
    await attempt(() => bad.client.halts('nyse'));
    await attempt(() => deadClient.kline({ code: 'EURUSD', klineType: 1, count: 1 }));
    await attempt(() => good.client.quotaStatus());
    printed.push(inspect(good.client, { depth: 20, showHidden: true }));
    printed.push(inspect(deadClient, { depth: 20, showHidden: true }));
    printed.push(JSON.stringify(good.client));
    await deadClient.close();
    expect(thrown.length).toBeGreaterThanOrEqual(4);
    const codes = thrown.map((e) => (e as { code?: string }).code);
    expect(codes).toContain('QL_API_TOKEN_INVALID');
    expect(codes).toContain('QL_API_TRANSPORT');
    expect(codes).toContain('QL_API_BAD_REQUEST');

    const written = await Promise.all((await filesUnder(world.stateDir)).map((f) => readFile(f, 'utf8')));
    const everything = [
      ...printed,
      ...thrown.map(dumpError),
      JSON.stringify([...good.infos, ...bad.infos, ...infos]),
      ...written,
      ...(await filesUnder(world.stateDir)),
    ].join('\n');
    expect(everything.length).toBeGreaterThan(1000);
    for (const token of [SECRET, WRONG]) {
      expect(everything).not.toContain(token);
      expect(everything).not.toContain(encodeURIComponent(token));
      expect(everything).not.toContain(token.slice(4));
    }
    // The redacted form is what shows where a token is named at all.
    expect(written.join('')).not.toContain('Supe');
  });
});
