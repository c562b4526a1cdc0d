/** Run ids sort by start time and are safe as file names: `20261122T004000Z-k3f9qa`. */
import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

export function createRunId(now: Date, random: () => Uint8Array = () => randomBytes(6)): string {
  const stamp = now.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');
  const suffix = [...random().slice(0, 6)].map((b) => ALPHABET[b % ALPHABET.length]).join('');
  return `${stamp}-${suffix}`;
}

export const RUN_ID = /^\d{8}T\d{6}Z-[a-z0-9]{6}$/;

/** The commands that take the lake's lock and stage files as a run does, under an id of their own. */
export type MaintenanceCommand = 'compact' | 'vacuum' | 'repair';

/**
 * A maintenance command's id (`compact-20261122T004000123Z-a1b2c3`): named for its command, so its
 * staged folder and its files say what made them; longer than a run's, which the room kept for the
 * lake's keys counts (core/lake-key-reserve.ts).
 */
export function createMaintenanceId(command: MaintenanceCommand, now: Date, random: () => Uint8Array = () => randomBytes(3)): string {
  const stamp = now.toISOString().replace(/[-:.]/g, '');
  return `${command}-${stamp}-${Buffer.from(random().slice(0, 3)).toString('hex')}`;
}
