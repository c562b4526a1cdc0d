// Child process of sink.bench.mjs: streams N generated rows through the pipeline and reports its
// progress and peak RSS to the parent over IPC (never on stdout), so a run cut short by the
// benchmark's time budget still reports the peak so far.
import { batches, runPipeline } from './sink-workload.mjs';

const total = Number(process.argv[2]);
const outputDir = process.argv[3];
const started = performance.now();
let rows = 0;
function* counted() {
  for (const batch of batches(total)) {
    rows += batch.records.length;
    if (rows % 100_000 < batch.records.length) process.send?.({ kind: 'progress', rows, maxRssKb: process.resourceUsage().maxRSS });
    yield batch;
  }
}
const result = await runPipeline(outputDir, counted(), `rss${total}`);
const seconds = (performance.now() - started) / 1000;
process.send?.({ kind: 'done', ...result, seconds, maxRssKb: process.resourceUsage().maxRSS });
process.disconnect?.();
