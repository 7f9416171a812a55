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
 * files counts as a command, and so does each string of an `args` or
 * `notify` list (the servers an agent starts, Codex CLI's notifier); every
 * word of them that looks like a path counts as a script: wider than any
 * agent reads them, never narrower. The keys
 * are found in the text itself, so comments (Gemini CLI reads JSONC), a
 * file no parser accepts and a key at any depth are all read, and no JSON
 * reader has to load with the hook. It also finds the folders Gemini CLI's
 * linked extensions load their hooks and servers from.
 *
 * @module
 */

import type { FsPort } from "../platform/fs_port.ts";
import { dirName, joinPath } from "../platform/path.ts";

/**
 * A key that names what runs, and its value: a string (a hook's `command`,
 * `bash` or `powershell`, a server's `command`) or an array of strings (a
 * server's `args`, Codex CLI's `notify`), in JSON (`"key": …`) or TOML
 * (`key = …`).
 */
const COMMAND_ENTRY =
  /(?:"(?:command|bash|powershell|args|notify)"\s*:|\b(?:command|args|notify)\s*=)\s*("(?:[^"\\]|\\.)*"|'[^']*'|\[[^\]]*\])/g;

/** A JSON or TOML string: basic (escapes read) or TOML's literal `'…'`. */
const STRING = /"((?:[^"\\]|\\.)*)"|'([^']*)'/g;

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

/** A string literal's value; the text as written when its escapes are not JSON's. */
function unquoted(body: string): string {
  try {
    return JSON.parse(`"${body}"`);
  } catch {
    return body;
  }
}

/** The strings under command keys anywhere in `text`, at most `MAX_COMMANDS`. */
function commandsIn(text: string): string[] {
  const out: string[] = [];
  for (const found of text.matchAll(COMMAND_ENTRY)) {
    for (const item of found[1].matchAll(STRING)) {
      if (out.length >= MAX_COMMANDS) return out;
      out.push(item[1] === undefined ? item[2] : unquoted(item[1]));
    }
  }
  return out;
}

/** The scripts the commands of a registration file's text name (`commandsIn`, `scriptWords`). */
function scriptsIn(text: string, projectRoot: string, home: string | null): string[] {
  return commandsIn(text).flatMap((command) => scriptWords(command, projectRoot, home));
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
    out.push(absolute ? word : joinPath(projectRoot, word.replace(/^(?:\.[\\/])+/, "")));
  }
  return out;
}

/** Largest Claude Code config file read: it keeps every project's settings. */
const MAX_CLAUDE_CONFIG_BYTES = 8 * 1024 * 1024;

/** A JSON object's fields, or null for anything else. */
function fields(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : null;
}

/** A path with either separator, for comparing a project folder as two spellings write it. */
function slashed(path: string): string {
  return path.replaceAll("\\", "/").replace(/\/+$/, "");
}

/**
 * The scripts of the MCP servers Claude Code's own config file
 * (`~/.claude.json`) starts with a session here: its user-scope
 * `mcpServers` and the local-scope ones kept for this project under
 * `projects`. Another project's servers start only there, and their
 * relative paths are that project's, so they are left out. Text that is no
 * JSON starts no server (Claude Code cannot read it either).
 */
export function claudeConfigScripts(
  text: string,
  projectRoot: string,
  home: string | null,
): string[] {
  let config: Record<string, unknown> | null;
  try {
    config = fields(JSON.parse(text));
  } catch {
    return [];
  }
  if (config === null) return [];
  const projects = fields(config.projects) ?? {};
  const here = Object.keys(projects).filter((key) => slashed(key) === slashed(projectRoot));
  const lists = [config.mcpServers, ...here.map((key) => fields(projects[key])?.mcpServers)];
  const out: string[] = [];
  for (const list of lists) {
    for (const server of Object.values(fields(list) ?? {}).slice(0, MAX_COMMANDS)) {
      const entry = fields(server);
      if (entry === null) continue;
      const words = [entry.command, ...(Array.isArray(entry.args) ? entry.args : [])]
        .filter((w): w is string => typeof w === "string");
      out.push(...scriptWords(words.join(" "), projectRoot, home));
    }
  }
  return out;
}

/** The scripts Claude Code's config files at `files` start servers from (`claudeConfigScripts`). */
export function claudeConfigFileScripts(
  files: readonly string[],
  projectRoot: string,
  home: string | null,
  fs: FsPort,
): string[] {
  return files.flatMap((file) => {
    const text = fs.readTextBounded(file, MAX_CLAUDE_CONFIG_BYTES);
    return text === null ? [] : claudeConfigScripts(text, projectRoot, home);
  });
}

/**
 * The script paths the commands of the registration files at `files` name.
 * Each folder is looked at once before its files are read: most agents'
 * folders are missing, and one failed lookup per folder costs less than
 * one per file.
 */
export function hookScripts(
  files: readonly string[],
  projectRoot: string,
  home: string | null,
  fs: FsPort,
): string[] {
  const out: string[] = [];
  const folders = new Map<string, boolean>();
  for (const file of files) {
    const folder = dirName(file);
    let present = folders.get(folder);
    if (present === undefined) {
      const info = fs.lstat(folder);
      // A link to a folder is followed by the read below; anything else that exists is tried too.
      present = !info.ok ? false : info.isDirectory || info.isSymlink;
      folders.set(folder, present);
    }
    if (!present) continue;
    const text = fs.readTextBounded(file, MAX_FILE_BYTES);
    if (text !== null) out.push(...scriptsIn(text, projectRoot, home));
  }
  return out;
}

/** The record a linked Gemini CLI extension keeps in its installed folder. */
const INSTALL_RECORD = ".gemini-extension-install.json";

/** Most extensions read from one extensions folder. */
const MAX_EXTENSIONS = 64;

/** Largest install record read. */
const MAX_RECORD_BYTES = 64 * 1024;

/**
 * The folders the Gemini CLI extensions installed under `extensionsDirs`
 * are linked from. `gemini extensions link DIR` records DIR in the
 * installed extension's `.gemini-extension-install.json`
 * (`{"type":"link","source":DIR}`), and Gemini CLI 0.61.0 then loads the
 * extension's config (its MCP servers) and hooks from DIR itself, often a
 * checkout the agent works in. A folder that cannot be listed, or a record
 * that is not a link, adds none.
 */
export function linkedExtensionSources(extensionsDirs: readonly string[], fs: FsPort): string[] {
  const out: string[] = [];
  for (const dir of extensionsDirs) {
    for (const name of fs.listNames?.(dir, MAX_EXTENSIONS) ?? []) {
      const record = joinPath(joinPath(dir, name), INSTALL_RECORD);
      const text = fs.readTextBounded(record, MAX_RECORD_BYTES);
      if (text === null) continue;
      try {
        const linked = JSON.parse(text);
        if (linked?.type === "link" && typeof linked.source === "string" && linked.source !== "") {
          out.push(linked.source);
        }
      } catch {
        // A record Gemini CLI cannot read links nothing.
      }
    }
  }
  return out;
}

/**
 * The scripts a linked extension's config and hooks name, with the
 * variables Gemini CLI fills in read as it fills them (`${extensionPath}`
 * is the linked folder, `${workspacePath}` the project, `${/}` and
 * `${pathSeparator}` a separator).
 */
export function linkedExtensionScripts(
  source: string,
  projectRoot: string,
  home: string | null,
  fs: FsPort,
): string[] {
  const { config, hooks } = linkedExtensionFiles(source);
  const out: string[] = [];
  for (const file of [config, joinPath(hooks, "hooks.json")]) {
    const text = fs.readTextBounded(file, MAX_FILE_BYTES);
    if (text === null) continue;
    const filled = text.replaceAll("${extensionPath}", source)
      .replaceAll("${workspacePath}", projectRoot)
      .replaceAll("${/}", "/").replaceAll("${pathSeparator}", "/");
    out.push(...scriptsIn(filled, projectRoot, home));
  }
  return out;
}

/** The files of a linked extension's folder that decide what runs: its config, and its hooks folder. */
export function linkedExtensionFiles(source: string): { config: string; hooks: string } {
  return { config: joinPath(source, "gemini-extension.json"), hooks: joinPath(source, "hooks") };
}
