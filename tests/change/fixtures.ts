/**
 * Builders shared by the change-profile tests: change inputs, expected
 * profiles, and a seeded PRNG for the property tests.
 *
 * @module
 */

import type { ChangeInput, ChangeProfile } from "../../src/change/profile.ts";
import { pick } from "../helpers/prng.ts";
export { mulberry32 } from "../helpers/prng.ts";

/** An Edit change input. */
export function edit(oldString: unknown, newString: unknown, replaceAll?: unknown): ChangeInput {
  return { tool: "Edit", oldString, newString, replaceAll };
}

/** A MultiEdit change input from `[old, new]` pairs (or raw entries). */
export function multi(...entries: unknown[]): ChangeInput {
  return {
    tool: "MultiEdit",
    edits: entries.map((e) =>
      Array.isArray(e) ? { old_string: e[0], new_string: e[1], replace_all: e[2] } : e
    ),
  };
}

/** A Write change input. */
export function write(content: unknown): ChangeInput {
  return { tool: "Write", content };
}

/** The profile flags a test can expect to be set. */
export type Flags = "public" | "data" | "trivial";

/** The expected profile of a readable change in `language` with the named flags set. */
export function known(language: string, ...flags: Flags[]): ChangeProfile {
  return {
    known: true,
    language,
    touchesPublicSurface: flags.includes("public"),
    touchesData: flags.includes("data"),
    trivial: flags.includes("trivial"),
  };
}

/** The expected profile of a change that could not be read. */
export function unknown(language: string | null): ChangeProfile {
  return {
    known: false,
    language,
    touchesPublicSurface: true,
    touchesData: true,
    trivial: false,
  };
}

/** A random text of `length` characters drawn from `pieces`. */
export function randomText(rand: () => number, pieces: readonly string[], length: number): string {
  const out: string[] = [];
  let size = 0;
  while (size < length) {
    const piece = pick(rand, pieces);
    out.push(piece);
    size += piece.length;
  }
  return out.join("").slice(0, length);
}
