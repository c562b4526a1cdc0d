/**
 * Whether the CLI colours what it prints, and the colours themselves (picocolors). Off the terminal
 * nothing changes: with colour off every formatter returns its text as is, byte for byte.
 */
import pc from 'picocolors';

/** The formatters picocolors gives (identity functions when colour is off). */
export type Colors = ReturnType<typeof pc.createColors>;

/**
 * Colour is on for a terminal unless turned off. In order: `--no-color` turns it off; `NO_COLOR`
 * with any non-empty value (no-color.org) turns it off; `FORCE_COLOR` turns it on even off a
 * terminal (`0` or `false` turn it off); `TERM=dumb` turns it off; otherwise: is stderr a terminal.
 */
export function colorEnabled(options: { isTTY: boolean; env: NodeJS.ProcessEnv; flag?: boolean | undefined }): boolean {
  const { env } = options;
  if (options.flag === false) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR.toLowerCase() !== 'false';
  if (env.TERM === 'dumb') return false;
  return options.isTTY;
}

export function colors(enabled: boolean): Colors {
  return pc.createColors(enabled);
}

/** Text as a terminal shows it: without SGR colour sequences. */
export function stripColor(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\x1b\[[0-9;]*m/g, '');
}
