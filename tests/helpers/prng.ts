/**
 * mulberry32: a small seeded pseudo-random generator, so property tests and
 * generated fixtures reproduce exactly from their seed.
 *
 * @module
 */

/** A generator of floats in [0, 1) seeded by `seed`. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One item of `items`, chosen by `rand`. */
export function pick<T>(rand: () => number, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)];
}

/** `count` pieces chosen by `rand`, joined: a random command or snippet. */
export function joinPieces(rand: () => number, pieces: readonly string[], count: number): string {
  let out = "";
  for (let i = 0; i < count; i++) out += pick(rand, pieces);
  return out;
}
