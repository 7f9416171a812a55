/**
 * The real Claude Code 2.1.332 transcripts under
 * `tests/fixtures/claude-code-2.1.332/`, recorded by
 * `deno task record-fixtures` (see docs/e2e.md). A fixture that is missing
 * fails the test with its name and how to get it back, never with an empty
 * scan.
 *
 * @module
 */

/** The folder of the recorded transcripts. */
export const REAL_DIR: string =
  new URL("../fixtures/claude-code-2.1.332/", import.meta.url).pathname;

/** Every recorded transcript, by file name. */
export const REAL_FIXTURES: readonly string[] = [
  "edit-denied.jsonl",
  "edit-with-note.jsonl",
  "bash-then-missing-tools.jsonl",
  "grep-glob-tools.jsonl",
];

/** The path of a recorded transcript; throws, naming the file, when it is not there. */
export function realTranscript(name: string): string {
  const path = `${REAL_DIR}${name}`;
  let isFile = false;
  try {
    isFile = Deno.statSync(path).isFile;
  } catch {
    isFile = false;
  }
  if (!isFile) {
    throw new Error(
      `missing fixture ${path}: restore it from git or re-record it with \`deno task record-fixtures\``,
    );
  }
  return path;
}

/** The records of a recorded transcript, parsed. */
export function realRecords(name: string): Record<string, unknown>[] {
  return Deno.readTextFileSync(realTranscript(name)).split("\n").filter((l) => l !== "")
    .map((l) => JSON.parse(l));
}

/** The `promptId` of the transcript's human prompt (the first user record with text content). */
export function realPromptId(name: string): string {
  const prompt = realRecords(name).find((r) =>
    r.type === "user" && typeof (r.message as { content?: unknown })?.content === "string"
  );
  if (typeof prompt?.promptId !== "string") throw new Error(`${name} has no human prompt record`);
  return prompt.promptId;
}
