/**
 * The scripts the agents' registered hooks run. A hook's command is
 * GateGuard's peer: it runs at the agent's calls with no gate in front of
 * it, so the file it names (`"$CLAUDE_PROJECT_DIR"/.claude/hooks/fmt.sh`,
 * `node ~/tools/hook.js`) is code that can switch GateGuard off or forge
 * its evidence at the next call, whoever registered it. This module reads
 * the registration files the control surface lists and returns the paths
 * their commands name; `surface.ts` turns them into the hook-script row.
 *
 * Every string under a `command`, `bash` or `powershell` key of those
 * files counts as a command, and every word of it that looks like a path
 * as a script: wider than any agent reads them, never narrower. The keys
 * are found in the text itself, so comments (Gemini CLI reads JSONC), a
 * file no parser accepts and a key at any depth are all read, and no JSON
 * reader has to load with the hook.
 *
 * @module
 */

import type { FsPort } from "../platform/fs_port.ts";
import { joinPath } from "../platform/path.ts";

/** A command key and its string value, in any agent's hook file. */
const COMMAND_ENTRY = /"(?:command|bash|powershell)"\s*:\s*"((?:[^"\\]|\\.)*)"/g;

/**
 * Variables a hook command may use for the project folder, across the
 * agents, as a POSIX shell, PowerShell (`$env:X`) or cmd.exe (`%X%`) spells
 * them.
 */
const PROJECT_VARIABLES =
  /\$\{?(?:env:)?(?:CLAUDE_PROJECT_DIR|GEMINI_PROJECT_DIR|GEMINI_CWD|CURSOR_PROJECT_DIR)\}?|%(?:CLAUDE_PROJECT_DIR|GEMINI_PROJECT_DIR|GEMINI_CWD|CURSOR_PROJECT_DIR)%/gi;

/** The home folder as a hook command spells it at the start of a path. */
const HOME_PREFIX =
  /^(?:~|\$\{?HOME\}?|\$env:(?:HOME|USERPROFILE)|%(?:HOME|USERPROFILE)%)(?=[\\/])/i;

/** Largest registration file read. */
const MAX_FILE_BYTES = 1024 * 1024;

/** Most commands read from one file, so a crafted file cannot make the walk long. */
const MAX_COMMANDS = 256;

/** The strings under command keys anywhere in `text`, at most `MAX_COMMANDS`. */
function commandsIn(text: string): string[] {
  const out: string[] = [];
  for (const found of text.matchAll(COMMAND_ENTRY)) {
    if (out.length >= MAX_COMMANDS) break;
    try {
      out.push(JSON.parse(`"${found[1]}"`));
    } catch {
      // An escape JSON refuses: the text as written is still read for paths.
      out.push(found[1]);
    }
  }
  return out;
}

/**
 * The path-like words of one hook command, made absolute: the project
 * folder's variables and the home expanded, a relative path taken from the
 * project (where the agents start their hooks).
 */
export function scriptWords(command: string, projectRoot: string, home: string | null): string[] {
  const out: string[] = [];
  const text = command.replace(PROJECT_VARIABLES, projectRoot);
  for (const raw of text.split(/[\s;&|()]+/)) {
    // Quotes only group: `"$CLAUDE_PROJECT_DIR"/hooks/x.sh` is one path.
    let word = raw.replace(/["']/g, "");
    if (word === "" || word.startsWith("-") || word.includes("=") || word.includes("://")) continue;
    if (home !== null) word = word.replace(HOME_PREFIX, home);
    if (!/[\\/]/.test(word) || word.includes("$") || word.includes("%")) continue;
    const absolute = word.startsWith("/") || /^[A-Za-z]:[\\/]/.test(word);
    out.push(absolute ? word : joinPath(projectRoot, word));
  }
  return out;
}

/** The script paths the commands of the registration files at `files` name. */
export function hookScripts(
  files: readonly string[],
  projectRoot: string,
  home: string | null,
  fs: FsPort,
): string[] {
  const out: string[] = [];
  for (const file of files) {
    const text = fs.readTextBounded(file, MAX_FILE_BYTES);
    if (text === null) continue;
    for (const command of commandsIn(text)) {
      out.push(...scriptWords(command, projectRoot, home));
    }
  }
  return out;
}
