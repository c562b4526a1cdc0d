/**
 * The sends of one token that its rate windows still hold, kept between processes in
 * `<stateDir>/quota/<hash16>.sends.json` (the token itself is never written).
 *
 * Why: the service counts its windows per token, not per process. A run that starts right after
 * another on the same token (two pipelines back to back from a script, a cron job every minute)
 * would otherwise send into windows the last run had filled: its first second's requests, its
 * first `/batch-kline` within the gap, its first suspension request within the minute, all
 * answered 429. Each process saves its stamps when its client closes and the next one counts them
 * before its first request, as the service does.
 *
 * Stamps are kept as ages in the machine's time, not as instants of the client's clock: a run
 * under `--clock` takes another instant as now while the service's windows pass in real time, so
 * an age carries over between runs whatever their clocks. A virtual clock (tests, a library's
 * simulation) is its own time: its ages are counted on it.
 *
 * Best effort by design: a file that cannot be read or written changes nothing but the chance of a
 * 429, which the client already survives (it holds the window and sends again). Two processes
 * closing at once may lose one's stamps; `--coordinator` shares the windows exactly.
 */
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { TEMP_MARKER, writeFileAtomic } from '../core/atomic-write.js';
import { isVirtualClock, type Clock } from '../core/clock.js';
import { tokenHash16 } from './quota-store.js';

interface SendsFile {
  version: 1;
  tokenHash: string;
  /** The reference time it was saved at (machine ms; the clock's own on a virtual clock). */
  savedAt: number;
  /** Per window key: its length and each send's age at savedAt, in ms. */
  windows: Record<string, { windowMs: number; ages: number[] }>;
}

/** A temp file older than this was left by a killed process (a save takes milliseconds). */
const STALE_TEMP_MS = 60_000;

/** Each window's stamps on the client's clock, with the window's length. */
export type WindowStamps = Map<string, { windowMs: number; stamps: number[] }>;

export class RecentSends {
  private readonly dir: string;
  private readonly name: string;
  private readonly hash: string;

  constructor(
    stateDir: string,
    token: string,
    private readonly clock: Clock,
  ) {
    this.hash = tokenHash16(token);
    this.dir = join(stateDir, 'quota');
    this.name = `${this.hash}.sends.json`;
  }

  get file(): string {
    return join(this.dir, this.name);
  }

  /** The stamps an earlier process left that still fall in their windows now, on this clock. */
  async load(): Promise<WindowStamps> {
    const out: WindowStamps = new Map();
    const file = await this.read();
    if (!file) return out;
    const now = this.clock.now();
    // Saved "in the future" (the machine's clock was set back): its sends count as just made.
    const since = Math.max(0, this.reference() - file.savedAt);
    for (const [key, { windowMs, ages }] of Object.entries(file.windows)) {
      const stamps = ages.map((age) => age + since).filter((age) => age < windowMs).map((age) => now - age);
      if (stamps.length > 0) out.set(key, { windowMs, stamps: stamps.sort((a, b) => a - b) });
    }
    return out;
  }

  /** Saves `windows` (the limiter's recentStamps), with what an earlier process left that still counts. */
  async save(windows: WindowStamps): Promise<void> {
    const merged = await this.load();
    for (const [key, { windowMs, stamps }] of windows) {
      const earlier = merged.get(key)?.stamps ?? [];
      merged.set(key, { windowMs, stamps: [...earlier, ...stamps] });
    }
    const now = this.clock.now();
    const file: SendsFile = { version: 1, tokenHash: this.hash, savedAt: this.reference(), windows: {} };
    for (const [key, { windowMs, stamps }] of merged) {
      const ages = stamps.map((t) => Math.max(0, now - t)).filter((age) => age < windowMs);
      if (ages.length > 0) file.windows[key] = { windowMs, ages: ages.sort((a, b) => a - b) };
    }
    await this.sweepTemps();
    if (Object.keys(file.windows).length === 0) await rm(this.file, { force: true });
    // Not fsynced: losing it to a power cut costs at most a 429, not a count.
    else await writeFileAtomic(this.file, `${JSON.stringify(file)}\n`, { durable: false });
  }

  /** Machine time, except on a virtual clock, whose time is its own. */
  private reference(): number {
    return isVirtualClock(this.clock) ? this.clock.now() : Date.now();
  }

  private async read(): Promise<SendsFile | undefined> {
    try {
      const file = JSON.parse(await readFile(this.file, 'utf8')) as Partial<SendsFile>;
      if (file.version !== 1 || file.tokenHash !== this.hash || typeof file.savedAt !== 'number' || typeof file.windows !== 'object' || file.windows === null) return undefined;
      for (const entry of Object.values(file.windows)) {
        if (typeof entry?.windowMs !== 'number' || !Array.isArray(entry.ages) || !entry.ages.every((a) => typeof a === 'number' && Number.isFinite(a))) return undefined;
      }
      return file as SendsFile;
    } catch {
      // None yet, or damaged: nothing is known of earlier sends (a 429 would tell).
      return undefined;
    }
  }

  private async sweepTemps(): Promise<void> {
    const prefix = `.${this.name}${TEMP_MARKER}`;
    for (const name of await readdir(this.dir).catch(() => [] as string[])) {
      if (!name.startsWith(prefix)) continue;
      const made = await stat(join(this.dir, name)).catch(() => undefined);
      if (made !== undefined && Date.now() - made.mtimeMs > STALE_TEMP_MS) await rm(join(this.dir, name), { force: true });
    }
  }
}

/** A gap (one request per window: a suspension endpoint's minute, `/batch-kline`'s seconds) an earlier run left holding. */
export interface CarriedHold {
  /** When the earlier run's last request there was sent, and when its gap lets the next one go. */
  readonly sentAt: number;
  readonly until: number;
}

/**
 * The gaps earlier runs left holding past `now`, by window key (`gap:<endpoint>`): a run whose first
 * request there waits most of a minute shows nothing moving meanwhile, so the client says why.
 */
export function carriedHolds(earlier: WindowStamps, now: number): Map<string, CarriedHold> {
  const holds = new Map<string, CarriedHold>();
  for (const [key, { windowMs, stamps }] of earlier) {
    if (!key.startsWith('gap:') || stamps.length === 0) continue;
    const sentAt = Math.max(...stamps);
    if (sentAt + windowMs > now) holds.set(key, { sentAt, until: sentAt + windowMs });
  }
  return holds;
}
