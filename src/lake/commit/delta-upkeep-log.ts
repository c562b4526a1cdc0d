/**
 * What a Delta commit did past its version, said in the run's log: a checkpoint that failed (the
 * version is in; readers replay more JSON until the next one, and a checkpoint failing every time
 * would otherwise go unseen), the log cleanup that followed one, or its failure (the entries it
 * left go at a later checkpoint). Neither failure fails the commit.
 */
import type { Logger } from '../../core/component.js';
import type { CommitResult } from '../delta/commit-delta-version.js';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function logDeltaUpkeep(logger: Logger, dataset: string, result: CommitResult | undefined): void {
  if (result === undefined) return;
  const { version } = result;
  if (result.checkpointError !== undefined) {
    logger.warn(`the Delta checkpoint of version ${version} could not be written (the version is committed; readers replay the log from the previous checkpoint until the next one): ${messageOf(result.checkpointError)}`, {
      event: 'delta-upkeep',
      action: 'checkpoint-failed',
      dataset,
      version,
    });
  }
  if (result.logCleanupError !== undefined) {
    logger.warn(`the Delta log's cleanup after the checkpoint of version ${version} stopped (the entries it left go at a later checkpoint): ${messageOf(result.logCleanupError)}`, {
      event: 'delta-upkeep',
      action: 'log-cleanup-failed',
      dataset,
      version,
    });
  }
  const deleted = result.logCleanup?.deleted.length ?? 0;
  if (deleted > 0) {
    logger.info(`deleted ${deleted} Delta log entries older than the table's log retention`, {
      event: 'delta-upkeep',
      action: 'log-cleaned',
      dataset,
      version,
      entries: deleted,
      ...(result.logCleanup?.historyFrom !== undefined ? { historyFrom: result.logCleanup.historyFrom } : {}),
    });
  }
}
