/**
 * Admitting a hook payload, as the hook and `gateguard explain` both do:
 * read with the 64 MiB bound, charge its size to the call's work budget,
 * then look at its shape before `JSON.parse` runs. A payload turned away
 * here is never decoded or parsed, and both commands say the same thing
 * about it.
 *
 * @module
 */

import type { WorkBudget } from "../platform/budget.ts";
import { readBoundedBytes, type SyncReader } from "../platform/bounded_read.ts";
import { jsonShapeWithin } from "../platform/json_shape.ts";

/** Largest payload read; a larger one is denied as uninspectable. */
export const MAX_PAYLOAD_BYTES = 64 * 1024 * 1024;

/**
 * Most arrays and objects, and deepest nesting, of a payload that is
 * parsed. A real call holds a few dozen; a MultiEdit of 100,000 entries
 * is no edit anyone reviews.
 */
const PAYLOAD_SHAPE = { maxDepth: 512, maxContainers: 100_000 } as const;

/**
 * A payload admitted as text, or why not: `oversize` past the byte bound,
 * `too-complex` past the call's work budget (left unread) or past the
 * shape bounds.
 */
export type AdmittedPayload =
  | { kind: "text"; text: string }
  | { kind: "oversize" }
  | { kind: "too-complex" };

/**
 * Reads `reader` to its end as a payload. Decoding, the shape scan and
 * parsing each read every byte once, so the size is charged to `work`
 * before any of them: an input the budget could not even read is refused
 * unread (and not kept). Throws what the reader throws.
 */
export function admitPayload(reader: SyncReader, work: WorkBudget): AdmittedPayload {
  const read = readBoundedBytes(reader, MAX_PAYLOAD_BYTES, work.limit);
  if (!read.ok) return { kind: "oversize" };
  if (!work.spend(read.size, "payload") || read.bytes === null) return { kind: "too-complex" };
  const text = new TextDecoder().decode(read.bytes);
  // Millions of tiny objects cost seconds to parse and allocate: look first.
  if (!jsonShapeWithin(text, PAYLOAD_SHAPE)) return { kind: "too-complex" };
  return { kind: "text", text };
}

/** The denial the hook answers a payload it turned away with. */
export async function refusalText(refused: "oversize" | "too-complex"): Promise<string> {
  const { oversizeText, tooComplexText } =
    await (import(new URL("../questions/messages.ts", import.meta.url).href) as Promise<
      typeof import("../questions/messages.ts")
    >);
  return refused === "oversize" ? oversizeText(MAX_PAYLOAD_BYTES) : tooComplexText("call");
}
