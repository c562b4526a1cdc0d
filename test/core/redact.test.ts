import { describe, expect, it } from 'vitest';
import { redactSecrets, redactText, redactToken } from '../../src/core/redact.js';

describe('redactText: a short token is masked only where it stands whole', () => {
  it('leaves words that merely contain it alone (the "une…pected" bug)', () => {
    expect(redactText('unexpected exit 1: x-ray xylophone max_x x9', 'x')).toBe('unexpected exit 1: x-ray xylophone max_x x9');
    expect(redactText('status failed (exit 1)', 'x')).toBe('status failed (exit 1)');
  });

  it('masks it in URLs, query strings, headers and JSON', () => {
    expect(redactText('GET /kline?token=x&query=%7B%7D', 'x')).toBe('GET /kline?token=…&query=%7B%7D');
    expect(redactText('authorization: Bearer x', 'x')).toBe('authorization: Bearer …');
    expect(redactText('{"token":"x","n":1}', 'x')).toBe('{"token":"…","n":1}');
    expect(redactText('x', 'x')).toBe('…');
    // Inside an encoded URL, a %XX escape is a separator.
    expect(redactText('next=%2Fkline%3Ftoken%3Dx%26a%3D1', 'x')).toBe('next=%2Fkline%3Ftoken%3D…%26a%3D1');
  });

  it('masks a short token with URL-special characters raw and encoded', () => {
    expect(redactText('t=a+b and t=a%2Bb', 'a+b')).toBe('t=… and t=…');
  });

  it('masks a long token wherever it appears, even glued to other text', () => {
    const token = 'SuperSecretToken-9f8e';
    expect(redactText(`abc${token}def ${token}`, token)).toBe('abcSupe…def Supe…');
    expect(redactText(`%3D${encodeURIComponent('tok/en+secret=1')}`, 'tok/en+secret=1')).toBe('%3Dtok/…');
  });

  it('redacted forms: first 4 characters only for tokens longer than 8', () => {
    expect(redactToken('SuperSecretToken')).toBe('Supe…');
    expect(redactToken('abcdefgh')).toBe('…');
    expect(redactToken('x')).toBe('…');
  });

  it('several secrets: the longest first, so one that contains another is masked whole', () => {
    expect(redactSecrets('k=abcdefghijkl and abcdefgh', ['abcdefgh', 'abcdefghijkl'])).toBe('k=abcd… and …');
  });

  it('masks the form encoding URLSearchParams gives a token (the suspension URL) and escapes in either case', () => {
    const token = 'abc~def gh(secret)';
    const form = new URLSearchParams({ token }).toString();
    expect(form).toBe('token=abc%7Edef+gh%28secret%29');
    expect(redactText(`HTTP 500 token invalid: /api/suspension/sse?${form}`, token)).toBe('HTTP 500 token invalid: /api/suspension/sse?token=abc~…');
    expect(redactText(`echo ${form.toLowerCase().replace('token=', '')}`, token)).toBe('echo abc~…');
    expect(redactText(`echo ${encodeURIComponent(token).replace(/%([0-9A-F]{2})/g, (m) => m.toLowerCase())}`, token)).toBe('echo abc~…');
    expect(redactText('t=a%7eb', 'a~b')).toBe('t=…');
  });
});
