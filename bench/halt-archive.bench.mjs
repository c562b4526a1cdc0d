// Emulator halt records: cost of one year of one exchange, cold (first call) and warm (cached days).
import { HaltArchive } from '../dist/emulator/halts/index.js';

const NOW = Date.parse('2026-11-22T00:30:00Z');
const EXCHANGES = ['sse', 'nyse', 'nasdaq'];

export async function run() {
  const archive = new HaltArchive(1);
  let t = performance.now();
  for (const exchange of EXCHANGES) archive.records(exchange, NOW);
  const coldMs = (performance.now() - t) / EXCHANGES.length;

  const rounds = 200;
  let bytes = 0;
  t = performance.now();
  for (let i = 0; i < rounds; i++) {
    for (const exchange of EXCHANGES) archive.records(exchange, NOW + i * 60_000);
  }
  const warmMs = (performance.now() - t) / (rounds * EXCHANGES.length);
  for (const exchange of EXCHANGES) bytes += JSON.stringify(archive.records(exchange, NOW)).length;

  return [
    { name: 'halts.year_per_exchange.cold', value: round(coldMs), unit: 'ms', target: null },
    { name: 'halts.year_per_exchange.warm', value: round(warmMs), unit: 'ms', target: 5 },
    { name: 'halts.year_per_exchange.json_size', value: round(bytes / EXCHANGES.length / 1024), unit: 'KiB', target: null },
  ];
}

function round(x) {
  return Math.round(x * 100) / 100;
}
