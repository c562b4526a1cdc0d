/**
 * How often a table is checkpointed, from its metaData `configuration`: `delta.checkpointInterval`
 * (a positive integer, default 10), as Spark and delta-rs read it. A value that is not one (Spark
 * refuses it when it is set) keeps the default: a checkpoint is only a shortcut for readers, so no
 * interval loses data, it only makes the log quicker or slower to read.
 */
export const CHECKPOINT_INTERVAL = 'delta.checkpointInterval';
export const DEFAULT_CHECKPOINT_INTERVAL = 10;

export function checkpointIntervalOf(configuration: Readonly<Record<string, string | null | undefined>> | undefined): number {
  const text = configuration?.[CHECKPOINT_INTERVAL]?.trim();
  return text !== undefined && /^[1-9]\d{0,8}$/.test(text) ? Number(text) : DEFAULT_CHECKPOINT_INTERVAL;
}
