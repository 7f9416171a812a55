/**
 * The text Copilot CLI's `write_bash` and `write_powershell` type into a
 * running shell session, as the command lines it runs.
 *
 * The `input` field is keystrokes: text, plus keys spelled in braces
 * (`{enter}`, `{up}`, `{backspace}`, …). `{enter}` and a line break end a
 * line, which the shell then runs. Every other key, and every control
 * character, edits the line or recalls history (the tab key completes a
 * word), so the line that runs is not the text sent: such an input is not
 * read. Nor is one whose last line is not ended, since the next input
 * would finish that line and run it unseen. What is left is whole lines,
 * gated as a shell command of the session's dialect.
 *
 * @module
 */

import type { Field } from "../tools/fields.ts";

/**
 * A key spelled in braces. A shell's `${name}` looks the same; the CLI may
 * read it as a key, so it is read as one too.
 */
const KEY = /\{([A-Za-z][A-Za-z0-9_+-]{0,31})\}/g;

const EDITING_KEY = (key: string): string =>
  `it sends the key {${key}}, which edits or recalls the shell's line in a way GateGuard ` +
  `cannot follow`;

const CONTROL = "it sends a control character (such as a tab, which completes a word), which " +
  "edits the shell's line in a way GateGuard cannot follow";

const UNENDED = "its last line does not end with {enter}, so the next input would finish it " +
  "and run it unseen";

function isControl(code: number): boolean {
  return (code < 0x20 && code !== 0x0a) || (code >= 0x7f && code < 0xa0);
}

/** The command lines `input` runs in the session (without the final line break), or why it cannot be read. */
export function typedCommand(input: string): Field<string> {
  let problem: string | null = null;
  const keyed = input.replace(KEY, (whole, key: string) => {
    if (key === "enter") return "\n";
    problem ??= EDITING_KEY(key);
    return whole;
  });
  if (problem !== null) return { ok: false, problem };
  const text = keyed.replaceAll("\r\n", "\n").replaceAll("\r", "\n");
  for (let i = 0; i < text.length; i++) {
    if (isControl(text.charCodeAt(i))) return { ok: false, problem: CONTROL };
  }
  if (text === "") return { ok: true, value: "" };
  if (!text.endsWith("\n")) return { ok: false, problem: UNENDED };
  // The last line break only submits the line: the command is the text before it.
  return { ok: true, value: text.slice(0, -1) };
}
