/**
 * Builders shared by the change-profile tests: change inputs, expected
 * profiles, and a seeded PRNG for the property tests.
 *
 * @module
 */

import type { ChangeProfile } from "../../src/change/profile.ts";
import type { FileChange, TextEdit } from "../../src/tools/call.ts";
import { readTextEdit } from "../../src/tools/gated.ts";
import { isRecord } from "../../src/platform/json.ts";
import { pick } from "../helpers/prng.ts";
export { mulberry32 } from "../helpers/prng.ts";

function changeOf(edits: (TextEdit | null)[]): FileChange {
  return edits.every((e) => e !== null)
    ? { kind: "edits", edits: edits as TextEdit[] }
    : { kind: "unreadable" };
}

/** An Edit's change, from its raw fields as a payload carries them. */
export function edit(oldString: unknown, newString: unknown, replaceAll?: unknown): FileChange {
  return changeOf([readTextEdit(oldString, newString, replaceAll)]);
}

/** A MultiEdit's change from `[old, new]` pairs (or raw entries; one that is not an object is unreadable). */
export function multi(...entries: unknown[]): FileChange {
  return changeOf(
    entries.map((e) =>
      Array.isArray(e)
        ? readTextEdit(e[0], e[1], e[2])
        : isRecord(e)
        ? readTextEdit(e.old_string, e.new_string, e.replace_all)
        : null
    ),
  );
}

/** A Write's change, from its raw content. */
export function write(content: unknown): FileChange {
  return typeof content === "string" ? { kind: "write", content } : { kind: "unreadable" };
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
