// Preloaded into the client process (node --import) by cli-run.mjs: at exit it writes the
// process's own resource usage (user + sys CPU of all its threads, peak RSS) to the file named by
// QUOTELAKE_BENCH_USAGE_FILE. getrusage(RUSAGE_SELF) counts only this process, so neither the
// emulator nor the proxy ends up in the client's figure, and the last milliseconds of the run
// (the commit) are counted, which polling /proc/<pid>/stat from outside would miss.
import { writeFileSync } from 'node:fs';

const out = process.env.QUOTELAKE_BENCH_USAGE_FILE;
if (out) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    writeFileSync(out, JSON.stringify({ userUs: u.userCPUTime, systemUs: u.systemCPUTime, maxRssKb: u.maxRSS }));
  });
}
