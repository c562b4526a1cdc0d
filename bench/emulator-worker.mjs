// Runs the emulator on a worker thread of the benchmark's process, so the load generator and the
// server do not share one event loop (each gets a core, as a separate `quotelake serve` would).
import { parentPort } from 'node:worker_threads';
import { startEmulator } from '../dist/emulator/server.js';

const emu = await startEmulator({ seed: 1, limits: false });
parentPort.postMessage({ url: emu.url });
parentPort.on('message', async (msg) => {
  if (msg === 'close') {
    await emu.close();
    parentPort.postMessage({ closed: true });
    parentPort.close();
  }
});
