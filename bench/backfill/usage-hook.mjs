// Preloaded into the client process (node --import) by cli-run.mjs: at exit it writes the
// process's own resource usage (user + sys CPU of all its threads, peak RSS) to the file named by
// QUOTELAKE_BENCH_USAGE_FILE. getrusage(RUSAGE_SELF) counts only this process, so neither the
// emulator nor the proxy ends up in the client's figure, and the last milliseconds of the run
// (the commit) are counted, which polling /proc/<pid>/stat from outside would miss.
// On Linux it also writes the main thread's own CPU (/proc/thread-self/stat: the exit handler runs
// on the main thread), so the bench can say how much went to the other threads (V8's compiler and
// GC helpers, the encode worker, libuv's file pool).
import { readFileSync, writeFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const USER_HZ = 100;

function mainThreadUs() {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    // Fields after the command name (which may hold blanks): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / USER_HZ;
  } catch {
    return null;
  }
}

const out = process.env.QUOTELAKE_BENCH_USAGE_FILE;
if (out) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    writeFileSync(out, JSON.stringify({ userUs: u.userCPUTime, systemUs: u.systemCPUTime, maxRssKb: u.maxRSS, mainThreadUs: mainThreadUs() }));
  });
}
