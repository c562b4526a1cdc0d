/**
 * README ("Importing quotelake as a library changes nothing process-wide"): importing the built
 * package adds no signal listener and replaces neither process.emit nor fs.close. (proper-lockfile
 * installs signal-exit and graceful-fs when it loads, so it is loaded at the first quota reservation.)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('importing the package', () => {
  it('changes no signal handler, process.emit or fs function', () => {
    const script = `
      import fs from 'node:fs';
      const signals = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR2', 'exit'];
      const before = signals.map((s) => process.listenerCount(s));
      const emit = process.emit, reallyExit = process.reallyExit, close = fs.close, closeSync = fs.closeSync;
      await import(${JSON.stringify(join(ROOT, 'dist/index.js'))});
      console.log(JSON.stringify({
        listeners: signals.filter((s, i) => process.listenerCount(s) !== before[i]),
        emit: process.emit !== emit, reallyExit: process.reallyExit !== reallyExit,
        close: fs.close !== close, closeSync: fs.closeSync !== closeSync,
      }));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ listeners: [], emit: false, reallyExit: false, close: false, closeSync: false });
  });

  it('loads no AWS SDK, Redis or queue module until asked (the SDK when an S3 lake is opened)', () => {
    // A module hook names each such module as it loads (on stderr, from the hooks' thread).
    const hook = `export async function load(url, context, next) { if (/@aws-sdk|@smithy|ioredis|bullmq/.test(url)) process._rawDebug('sdk ' + url); return next(url, context); }`;
    const script = `
      import { register } from 'node:module';
      register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});
      const quotelake = await import(${JSON.stringify(join(ROOT, 'dist/index.js'))});
      process._rawDebug('imported');
      (await quotelake.openS3Lake('s3://bucket-one/lake', { region: 'us-east-1' })).close();`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    const [beforeOpen, afterOpen] = run.stderr.split('imported\n');
    expect(beforeOpen).not.toMatch(/^sdk /m);
    expect(afterOpen).toMatch(/^sdk .*@aws-sdk\/client-s3/m);
  });
});
