/**
 * yargs renders the whole help of a command as soon as its async handler starts (`cacheHelpMessage`),
 * for the case where the handler fails and no `.fail()` callback is set. The command line sets one
 * and never shows that text, so the render (about 30 CPU-ms of every run: string widths of every
 * option) is skipped. Reaches into yargs' internal methods; without them it changes nothing.
 */
interface HelpCache {
  cacheHelpMessage?: () => void;
}

export function skipHelpCache(cli: object): void {
  const usage = (cli as { getInternalMethods?: () => { getUsageInstance?: () => HelpCache } }).getInternalMethods?.().getUsageInstance?.();
  if (usage !== undefined && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => undefined;
}
