/** Run ids sort by start time and are safe as file names: `20261122T004000Z-k3f9qa`. */
import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

export function createRunId(now: Date, random: () => Uint8Array = () => randomBytes(6)): string {
  const stamp = now.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');
  const suffix = [...random().slice(0, 6)].map((b) => ALPHABET[b % ALPHABET.length]).join('');
  return `${stamp}-${suffix}`;
}

export const RUN_ID = /^\d{8}T\d{6}Z-[a-z0-9]{6}$/;
