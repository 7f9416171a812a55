/**
 * Which segments of a shell command change the shell's directory, however
 * the change is spelled: `cd` itself, `cd` run through `builtin` or
 * `command`, and, once a command has turned on bash's `autocd`, a bare word
 * that may name a directory. Only a literal `cd <dir>` (or its PowerShell
 * equivalents) says where the shell went; every other change leaves the
 * directory unknown.
 *
 * @module
 */

import type { Dialect, ShellSegment, ShellWord } from "./types.ts";
import {
  BASH_DIR_CHANGES,
  BASH_SEARCH_COMMANDS,
  INDIRECT_RUNNERS,
  PLAIN_DIR_CHANGES,
  POWERSHELL_DIR_CHANGES,
} from "./tool_flags.ts";
import { baseName } from "../platform/path.ts";

/** What one segment does to the shell's directory. */
export type DirChange =
  | { kind: "none" }
  /** A literal change to one operand: later relative operands rebase onto it. */
  | { kind: "plain"; dir: ShellWord }
  /** A change to a place that cannot be read from the command. */
  | { kind: "unknown" };

/**
 * Bash prefixes that run the builtin named after them in the current shell,
 * with the options each may take before that name. `command -v` and `-V`
 * only describe the name, so they change nothing.
 */
const BUILTIN_RUNNERS: Readonly<
  Record<string, { runs: readonly string[]; describes: readonly string[] }>
> = {
  builtin: { runs: [], describes: [] },
  command: { runs: ["-p"], describes: ["-v", "-V"] },
};

/** The `shopt` option that turns a bare directory name into a `cd`. */
const AUTOCD = "autocd";

/** Words that may change directory, for commands the lexer cannot read. */
export const DIR_CHANGE_WORDS: readonly string[] = [
  ...new Set([
    ...BASH_DIR_CHANGES,
    ...POWERSHELL_DIR_CHANGES,
    AUTOCD,
    ...Object.keys(INDIRECT_RUNNERS.bash).filter((name) => name !== "."),
    ...Object.keys(INDIRECT_RUNNERS.powershell),
  ]),
];

/** Bash's words for a directory change, and the option that makes a bare name one. */
const BASH_CHANGE_WORDS: readonly string[] = [
  ...BASH_DIR_CHANGES,
  AUTOCD,
  ...Object.keys(INDIRECT_RUNNERS.bash).filter((name) => name !== "."),
];

/** PowerShell's words for a directory change, and its runners of code in text. */
const POWERSHELL_CHANGE_WORDS: readonly string[] = [
  ...POWERSHELL_DIR_CHANGES,
  ...Object.keys(INDIRECT_RUNNERS.powershell),
];

function isNameChar(c: string | undefined): boolean {
  return c !== undefined && /[a-z0-9_.-]/.test(c);
}

/** True when `word` appears in `text` as a word of its own (a command name). */
export function containsCommandWord(text: string, word: string): boolean {
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    if (!isNameChar(text[at - 1]) && !isNameChar(text[at + word.length])) return true;
  }
  return false;
}

const NONE: DirChange = { kind: "none" };
const UNKNOWN: DirChange = { kind: "unknown" };

/**
 * Where the command word of a bash segment starts once `builtin` and
 * `command` prefixes are read off; null when the prefixes only describe it.
 */
function commandWordAt(words: readonly ShellWord[]): number | null {
  let i = 0;
  while (i < words.length) {
    const runner = Object.hasOwn(BUILTIN_RUNNERS, words[i].text)
      ? BUILTIN_RUNNERS[words[i].text]
      : null;
    if (runner === null) return i;
    i++;
    while (i < words.length && words[i].text.startsWith("-")) {
      const option = words[i].text;
      if (option === "--") {
        i++;
        break;
      }
      if (runner.describes.includes(option)) return null;
      if (!runner.runs.includes(option)) return null;
      i++;
    }
  }
  return i;
}

/** True when a bash segment is `shopt` setting `autocd` (`-u` unsets it). */
function setsAutocd(segment: ShellSegment): boolean {
  const texts = segment.words.map((w) => w.text);
  return segment.name === "shopt" && texts.includes("-s") && !texts.includes("-u") &&
    texts.includes(AUTOCD);
}

/**
 * Reads the directory changes of one command's segments in order. It keeps
 * what earlier segments set (`shopt -s autocd`), so feed it every segment.
 */
export class DirChangeReader {
  private autocd = false;

  constructor(private readonly dialect: Dialect) {}

  /** What `segment` does to the directory. */
  read(segment: ShellSegment): DirChange {
    if (segment.words.length === 0) return NONE;
    if (this.runsIndirectChange(segment)) return UNKNOWN;
    if (this.dialect === "powershell") {
      return POWERSHELL_DIR_CHANGES.has(segment.name)
        ? this.change(segment.name, segment, 1)
        : NONE;
    }
    if (setsAutocd(segment)) {
      // The option may not take effect before later segments run: doubt from here on.
      this.autocd = true;
      return NONE;
    }
    const at = commandWordAt(segment.words);
    if (at === null || at >= segment.words.length) return NONE;
    const name = at === 0 ? segment.name : baseName(segment.words[at].text);
    if (BASH_DIR_CHANGES.has(name)) return this.change(name, segment, at + 1);
    const bare = segment.words.length === 1 && !Object.hasOwn(BASH_SEARCH_COMMANDS, name);
    return this.autocd && bare ? UNKNOWN : NONE;
  }

  /**
   * True when the segment hands code to the current shell (`eval cd src`,
   * `source env.sh`, `iex 'cd src'`): where that code leaves the shell
   * cannot be read, so it counts as a change to an unknown place.
   */
  private runsIndirectChange(segment: ShellSegment): boolean {
    const runners = INDIRECT_RUNNERS[this.dialect];
    const name = this.dialect === "powershell" ? segment.name : baseName(segment.name);
    const kind = Object.hasOwn(runners, name) ? runners[name] : null;
    if (kind === null) return false;
    if (kind === "script") return true;
    const words = this.dialect === "powershell" ? POWERSHELL_CHANGE_WORDS : BASH_CHANGE_WORDS;
    return segment.words.slice(1).some((w) => {
      const text = w.text.toLowerCase();
      return w.expands || words.some((word) => containsCommandWord(text, word));
    });
  }

  private change(name: string, segment: ShellSegment, operandAt: number): DirChange {
    const plain = PLAIN_DIR_CHANGES.has(name) && segment.words.length === operandAt + 1;
    return plain ? { kind: "plain", dir: segment.words[operandAt] } : UNKNOWN;
  }
}
