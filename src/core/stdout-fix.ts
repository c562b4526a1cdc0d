/** What to do when stdout refused a write: said by the NDJSON sink and by the command line alike. */
export const STDOUT_FIX = 'stdout goes to a file or device that refused the write (full, over a file-size limit such as ulimit -f, gone or read-only): send it where there is room and run the same command again';
