// Child process of sink.bench.mjs: streams N generated rows through the pipeline and reports its
// peak RSS to the parent over IPC (never on stdout).
import { batches, runPipeline } from './sink-workload.mjs';

const total = Number(process.argv[2]);
const outputDir = process.argv[3];
const started = performance.now();
const result = await runPipeline(outputDir, batches(total), `rss${total}`);
const seconds = (performance.now() - started) / 1000;
process.send?.({ ...result, seconds, maxRssKb: process.resourceUsage().maxRSS });
process.disconnect?.();
