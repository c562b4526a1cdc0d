/**
 * The emulator's random module must give the very sequences its former copies gave (faults/prng.ts,
 * halts/seeded-random.ts, market/hash.ts, api/random.ts): many tests take the emulator's
 * fixed-seed output as ground truth. These values were printed by those copies before they merged.
 */
import { describe, expect, it } from 'vitest';
import { fnv1a, hash32, mulberry32, seededRandom, symmetric, unit } from '../../src/emulator/random/index.js';
import { seededRandom as clientJitter } from '../../src/api/index.js';

const seq = (next: () => number, n: number): number[] => Array.from({ length: n }, () => next());

describe('the emulator random module keeps the sequences of the copies it replaced', () => {
  it('mulberry32 (fault draws) and the client jitter', () => {
    expect([0, 1, 7, 42, 0xffffffff, -5].map((s) => seq(mulberry32(s), 4))).toEqual([[0.26642920868471265, 0.0003297457005828619, 0.2232720274478197, 0.1462021479383111], [0.6270739405881613, 0.002735721180215478, 0.5274470399599522, 0.9810509674716741], [0.011704753153026104, 0.06195825757458806, 0.97690763277933, 0.6990287057124078], [0.6011037519201636, 0.44829055899754167, 0.8524657934904099, 0.6697340414393693], [0.8964226141106337, 0.189478256739676, 0.7156526781618595, 0.9440599093213677], [0.48384718922898173, 0.05296749505214393, 0.9390332337934524, 0.7963776015676558]]);
    expect([1, 3, 7].map((s) => seq(clientJitter(s), 4))).toEqual([[0.6270739405881613, 0.002735721180215478, 0.5274470399599522, 0.9810509674716741], [0.7202267837710679, 0.03866216051392257, 0.4561921926215291, 0.07492800964973867], [0.011704753153026104, 0.06195825757458806, 0.97690763277933, 0.6990287057124078]]);
  });

  it('FNV-1a of a string (per-token seeds, per-code keys)', () => {
    expect(['', 'BTCUSDT', 'demo-free', '700.HK'].map((s) => fnv1a(s))).toEqual([2166136261, 3895251564, 3958179023, 1332496225]);
  });

  it('hash32, unit and symmetric (the synthetic market, behaviour draws)', () => {
    const args: [number, number, number, number][] = [[0, 0, 0, 0], [1, 2, 3, 4], [-1, 0x7fffffff, 99, 0x2545f491]];
    expect(args.map((a) => [hash32(...a), unit(...a), symmetric(...a)])).toEqual([[2827987777, 0.6584422143641859, 0.31688442872837186], [583639481, 0.1358891560230404, -0.7282216879539192], [1294397201, 0.30137533345259726, -0.3972493330948055]]);
  });

  it('seededRandom (halt records)', () => {
    const parts: (string | number)[][] = [[42, 'sse', 20000], ['x', 1], [7, 'nyse', 'a\u241fb']];
    const drawn = parts.map((p) => {
      const rnd = seededRandom(...p);
      return [rnd.next(), rnd.int(1, 100), rnd.chance(0.5), rnd.pick(['a', 'b', 'c']), rnd.weighted([['x', 1], ['y', 3]] as const)];
    });
    expect(drawn).toEqual([[0.8061975056771189, 82, false, "c", "y"], [0.9432693617418408, 12, true, "c", "y"], [0.75793955498375, 10, false, "b", "y"]]);
  });
});
