/** A token in a pipeline file is refused wherever it is put, with where tokens go, and its value is never echoed. */
import { describe, expect, it } from 'vitest';
import { parsePipelineYaml, PipelineConfigError } from '../../src/config/parse-pipeline.js';
import { components } from '../../src/components.js';
import { isSecretKey } from '../../src/config/secret-keys.js';

function problems(text: string): string[] {
  try {
    parsePipelineYaml(text, { registry: components, file: 'p.yaml' });
  } catch (e) {
    expect(e).toBeInstanceOf(PipelineConfigError);
    return (e as PipelineConfigError).describeAll().split('\n');
  }
  throw new Error('expected a config error');
}

describe('token keys in a pipeline file', () => {
  it('service.token, service.tokens, a top-level token and a source apiKey: each says where tokens go', () => {
    const text = [
      'name: x', // 1
      'token: SECRET-VALUE-1', // 2
      'source:', // 3
      '  type: kline-history', // 4
      '  codes: [BTCUSDT]', // 5
      '  intervals: [1m]', // 6
      '  apiKey: SECRET-VALUE-2', // 7
      'transforms:', // 8
      '  - type: parse-decimals', // 9
      'sink:', // 10
      '  type: parquet', // 11
      'service:', // 12
      '  token: SECRET-VALUE-3', // 13
      '  tokens: [SECRET-VALUE-4]', // 14
    ].join('\n');
    const lines = problems(text);
    const where =
      'tokens never go in a pipeline file: set QUOTELAKE_TOKEN (or --token) for one token, or QUOTELAKE_TOKENS=token:plan,token:plan or --tokens-file (a secrets file outside the project, chmod 600) for several';
    expect(lines).toEqual([
      `p.yaml:2:1: "token" is not accepted: ${where}`,
      `p.yaml:7:3: source: "apiKey" is not accepted: ${where}`,
      `p.yaml:13:3: service: "token" is not accepted: ${where}`,
      `p.yaml:14:3: service: "tokens" is not accepted: ${where}`,
    ]);
    expect(lines.join('\n')).not.toContain('SECRET');
  });

  it('tells secret keys from ordinary ones', () => {
    for (const k of ['token', 'tokens', 'Token', 'apiToken', 'api_token', 'apiKey', 'api-key', 'secret', 'tokensFile', 'tokenPool', 'tokenList']) expect(isSecretKey(k), k).toBe(true);
    for (const k of ['codes', 'plan', 'keepState', 'keyColumns', 'tokenizer', 'monkey', 'plansFile']) expect(isSecretKey(k), k).toBe(false);
  });
});

describe('service.baseUrl holds no secret', () => {
  const pipeline = (url: string) => `name: x\nservice:\n  baseUrl: ${JSON.stringify(url)}\nsource:\n  type: trade-snapshot\n  codes: [BTCUSDT]\nsink:\n  type: ndjson\n`;

  it('a user and password, or a query or fragment, refused at validate (run refuses them too), the secret never quoted', () => {
    expect(problems(pipeline('https://u:SECRET-VALUE-5@api.example.com/'))).toEqual([
      'p.yaml:3:12: service.baseUrl: "https://u:***@api.example.com/" holds a user name or password, which quotelake never sends: drop "user:password@" from it: the service takes the token (QUOTELAKE_TOKEN or --token)',
    ]);
    expect(problems(pipeline('https://api.example.com/?token=SECRET-VALUE-6'))).toEqual([
      'p.yaml:3:12: service.baseUrl: "https://api.example.com/?token=SECR%E2%80%A6" has a query or fragment, which quotelake never sends: give only http(s)://host[:port][/path]; the token goes in QUOTELAKE_TOKEN or --token',
    ]);
    expect(problems(pipeline('https://api.example.com/#frag'))[0]).toContain('has a query or fragment');
  });

  it('a URL that is not one is quoted redacted too', () => {
    expect(problems(pipeline('https://u:SECRET-VALUE-7@/x'))).toEqual([
      'p.yaml:3:12: service.baseUrl: "https://u:***@/x" is not an http(s) URL: give it as http://host:port or https://host[/path]',
    ]);
  });

  it('another scheme, or no scheme, is refused with the form to give', () => {
    for (const url of ['ftp://host', 'api.example.com:8443', 'http//api.example.com']) {
      expect(problems(pipeline(url))).toEqual([`p.yaml:3:12: service.baseUrl: "${url}" is not an http(s) URL: give it as http://host:port or https://host[/path]`]);
    }
  });

  it('an origin with a path is fine', () => {
    expect(() => parsePipelineYaml(pipeline('https://api.example.com:8443/v1'), { registry: components, file: 'p.yaml' })).not.toThrow();
  });
});

describe('a long value is quoted cut', () => {
  it('a 100,000-character code is named by its first 200 characters in each problem, never whole', () => {
    const code = 'A'.repeat(100_000);
    const lines = problems(`name: x\nsource:\n  type: trade-snapshot\n  codes: ["${code}"]\nsink:\n  type: ndjson\n`);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line.length).toBeLessThan(600);
    expect(lines.join('\n')).toContain(`"${'A'.repeat(200)}…"`);
  });
});
