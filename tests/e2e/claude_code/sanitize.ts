/**
 * Turns a transcript Claude Code wrote during a recording into a fixture
 * that can be committed: machine paths become placeholders, long client
 * texts outside the conversation become runs of `x` of the same length, and
 * anything that still names the machine makes the recording fail.
 *
 * Record sizes stay close to the original, so tests that measure how far a
 * record sits from the end of a transcript keep realistic figures.
 *
 * @module
 */

/** A machine path and the placeholder written in its place. */
export interface Replacement {
  path: string;
  placeholder: string;
}

/** Records whose strings are kept as written (the conversation itself). */
const MESSAGE_TYPES: ReadonlySet<string> = new Set(["user", "assistant"]);

/** Strings longer than this in other records are the client's own texts: blanked. */
export const KEEP_CHARS = 40;

/** Keys whose values describe the machine, written as these placeholders. */
const MACHINE_KEYS: Readonly<Record<string, string>> = {
  osVersion: "$OS_VERSION",
  hostname: "$HOST",
  username: "$USER",
};

function replacePaths(text: string, replacements: readonly Replacement[]): string {
  let out = text;
  for (const { path, placeholder } of replacements) out = out.replaceAll(path, placeholder);
  return out;
}

function sanitizeValue(
  value: unknown,
  replacements: readonly Replacement[],
  blankLong: boolean,
): unknown {
  if (typeof value === "string") {
    const text = replacePaths(value, replacements);
    return blankLong && text.length > KEEP_CHARS ? "x".repeat(text.length) : text;
  }
  if (Array.isArray(value)) return value.map((v) => sanitizeValue(v, replacements, blankLong));
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      out[key] = typeof v === "string" && key in MACHINE_KEYS
        ? MACHINE_KEYS[key]
        : sanitizeValue(v, replacements, blankLong);
    }
    return out;
  }
  return value;
}

/**
 * Sanitises one JSONL transcript. `replacements` are applied longest path
 * first, so a folder inside another gets its own placeholder.
 */
export function sanitizeTranscript(text: string, replacements: readonly Replacement[]): string {
  const ordered = [...replacements].sort((a, b) => b.path.length - a.path.length);
  return text.split("\n").filter((line) => line.trim() !== "").map((line) => {
    const record = JSON.parse(line);
    const blankLong = !MESSAGE_TYPES.has(String(record?.type));
    return JSON.stringify(sanitizeValue(record, ordered, blankLong));
  }).join("\n") + "\n";
}

/** The words that must not survive sanitising: paths, user and machine names. */
export function leaksIn(text: string, forbidden: readonly string[]): string[] {
  return forbidden.filter((word) => word !== "" && text.includes(word));
}
