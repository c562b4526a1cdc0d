/**
 * Feeds a run's events (rows by kind, files committed) into the metrics as they happen, so a scrape
 * or a textfile written mid-run shows the run so far, and the end shows what its summary shows.
 */
import { REJECTED_DIR } from '../../lake/rejected-writer.js';
import type { RunEventsRecorder } from '../run-events.js';
import type { QuotelakeMetrics } from './quotelake-metrics.js';

/** Subscribes; returns the function that unsubscribes. `dataset` names the run's data files. */
export function observeRun(metrics: QuotelakeMetrics, events: Pick<RunEventsRecorder, 'on'>, dataset: string): () => void {
  const offRows = events.on('rows', (e) => {
    if (e.count > 0) metrics.rows(e.dataset, e.kind, e.count);
  });
  const offFiles = events.on('committed', ({ files }) => {
    let dataFiles = 0;
    let dataBytes = 0;
    let rejectedFiles = 0;
    let rejectedBytes = 0;
    for (const f of files) {
      // Diverted records land under `_rejected/<dataset>/`; everything else a run commits is its dataset's.
      if (f.path.startsWith(`${REJECTED_DIR}/`)) {
        rejectedFiles++;
        rejectedBytes += f.bytes;
      } else {
        dataFiles++;
        dataBytes += f.bytes;
      }
    }
    if (dataFiles > 0) metrics.filesCommitted(dataset, 'data', dataFiles, dataBytes);
    if (rejectedFiles > 0) metrics.filesCommitted(dataset, 'rejected', rejectedFiles, rejectedBytes);
  });
  return () => {
    offRows();
    offFiles();
  };
}
