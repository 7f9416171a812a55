/**
 * `gateguard init`: registers GateGuard as a PreToolUse command hook in a
 * Claude Code settings file, updates an older registration in place, or
 * takes it out again (`--remove`). It can also write a commented starter
 * `.gateguard.jsonc` (`--config`) and print the plugin form (`--plugin`).
 *
 * The settings file is edited as text through the JSONC tree, one small
 * splice at a time, so the user's other settings, comments and layout stay
 * byte for byte; a file that does not parse is never written. This module
 * also owns what a GateGuard registration looks like (matchers, handler,
 * how Claude Code matches tool names), which `gateguard doctor` reuses.
 *
 * @module
 */

import { sourceArgv } from "../platform/permissions.ts";
import type { EnvSnapshot } from "../config/env.ts";
import { homeDir, projectConfigPath } from "../config/settings.ts";
import { STARTER_CONFIG } from "../config/project_config.ts";
import {
  appendItemEdits,
  applyEdits,
  detectFormat,
  getProperty,
  type JsonArrayNode,
  type JsonNode,
  type JsonObjectNode,
  type JsonValue,
  parseJsonc,
  removeChildEdits,
  setPropertyEdits,
  type TextEdit,
  type TextFormat,
  toValue,
} from "../config/jsonc.ts";

/** The file tools GateGuard gates. */
export const FILE_TOOLS: readonly string[] = ["Edit", "Write", "MultiEdit", "NotebookEdit"];
/** The shell tools (PowerShell is the shell tool on Windows without Git Bash). */
export const SHELL_TOOLS: readonly string[] = ["Bash", "PowerShell"];
/** The tools GateGuard gates; a registration must reach all of them. */
export const GATED_TOOLS: readonly string[] = [...FILE_TOOLS, ...SHELL_TOOLS];
/** Matcher of the file-tool entry. */
export const FILE_MATCHER: string = FILE_TOOLS.join("|");
/** Matcher of the shell-tool entry. */
export const SHELL_MATCHER: string = SHELL_TOOLS.join("|");
/** Seconds Claude Code waits for the hook; a timed-out hook does not block, so keep room. */
export const HOOK_TIMEOUT_SECONDS = 10;

/**
 * The command of the plugin form. Claude Code substitutes
 * `${CLAUDE_PLUGIN_ROOT}` before the shell runs it; state goes to
 * `CLAUDE_PLUGIN_DATA`, which the settings layer picks up by itself.
 */
export const PLUGIN_COMMAND =
  'deno run --quiet --no-prompt --config "${CLAUDE_PLUGIN_ROOT}/deno.json"' +
  ' --permission-set=gateguard "${CLAUDE_PLUGIN_ROOT}/src/main.ts"';

/** Where a registration is written. */
export type SettingsScope = "project" | "local" | "user";

/** One Claude Code settings file GateGuard may be registered in. */
export interface SettingsFile {
  scope: SettingsScope;
  path: string;
}

/** Characters that never need shell quoting. */
const SHELL_SAFE = /^[A-Za-z0-9_\/.:,+=@%-]+$/;

/** Quotes one word for the shell Claude Code runs hook commands in. */
export function shellQuote(word: string, windows: boolean): string {
  if (windows) {
    const slashed = word.replaceAll("\\", "/");
    return SHELL_SAFE.test(slashed) ? slashed : `"${slashed}"`;
  }
  return SHELL_SAFE.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
}

function dirName(path: string): string {
  const cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  return cut <= 0 ? (cut === 0 ? path.slice(0, 1) : ".") : path.slice(0, cut);
}

/** The file-system path of a `file:` URL. */
function pathOfFileUrl(url: URL, windows: boolean): string {
  const path = decodeURIComponent(url.pathname);
  return windows && /^\/[A-Za-z]:/.test(path) ? path.slice(1) : path;
}

/**
 * The command to register. A compiled binary registers its own absolute
 * path; when the runtime is `deno` itself (running from source) it is the
 * `deno run` line with the binary's permission set, for the repository this
 * module belongs to.
 */
export function registrationCommand(execPath: string, moduleUrl: string, windows: boolean): string {
  const runtime = baseName(execPath).toLowerCase();
  if (runtime !== "deno" && runtime !== "deno.exe") return shellQuote(execPath, windows);
  const repo = pathOfFileUrl(new URL("../..", moduleUrl), windows).replace(/\/$/, "");
  return sourceArgv(execPath, repo).map((word) => shellQuote(word, windows)).join(" ");
}

/** Extensions of scripts whose names start like ours, such as the older JavaScript hook. */
const SCRIPT_EXTENSIONS = [".js", ".mjs", ".cjs", ".ts", ".py", ".sh"];

function isGateGuardProgram(name: string): boolean {
  if (name === "gateguard" || name === "gateguard.exe") return true;
  // Release assets keep their platform suffix: gateguard-linux-x64, gateguard-windows-x64.exe.
  return name.startsWith("gateguard-") && !SCRIPT_EXTENSIONS.some((ext) => name.endsWith(ext));
}

/**
 * True for a hook command that runs GateGuard: a word naming the binary
 * (any install path, with or without a release-asset suffix) or the
 * `gateguard` permission set of a `deno run` line. The older JavaScript
 * hook (`gateguard-fact-force.js`) is not matched.
 */
export function isGateGuardCommand(command: string): boolean {
  for (const raw of command.split(/\s+/)) {
    const word = raw.replace(/["']/g, "").toLowerCase();
    if (word === "--permission-set=gateguard" || isGateGuardProgram(baseName(word))) return true;
  }
  return false;
}

/**
 * True for a hook handler (parsed JSON) whose command runs GateGuard, or is
 * exactly `ownCommand` (this build's command, whatever the binary is called).
 */
export function isGateGuardHandler(handler: unknown, ownCommand?: string): boolean {
  if (typeof handler !== "object" || handler === null || Array.isArray(handler)) return false;
  const command = (handler as Record<string, unknown>).command;
  return typeof command === "string" && (command === ownCommand || isGateGuardCommand(command));
}

/** A matcher made only of these characters is an exact tool name or list of names. */
const NAME_LIST = /^[A-Za-z0-9_\- ,|]+$/;

/**
 * Whether a PreToolUse matcher reaches a tool, the way Claude Code reads it:
 * missing, `""` or `*` match every tool; a list of plain names matches those
 * names exactly; anything else is an unanchored regular expression. The
 * expression is the user's own setting and only ever runs on a fixed tool
 * name; one that does not compile matches nothing.
 */
export function matcherCovers(matcher: unknown, tool: string): boolean {
  if (matcher === undefined || matcher === null || matcher === "" || matcher === "*") return true;
  if (typeof matcher !== "string") return false;
  if (NAME_LIST.test(matcher)) return matcher.split(/[|,]/).some((name) => name.trim() === tool);
  try {
    return new RegExp(matcher).test(tool);
  } catch {
    return false;
  }
}

/** The settings files of each scope for a project root and home directory. */
export function settingsFiles(projectRoot: string, home: string | null): SettingsFile[] {
  const root = projectRoot.replace(/[\\/]+$/, "");
  const files: SettingsFile[] = [
    { scope: "project", path: `${root}/.claude/settings.json` },
    { scope: "local", path: `${root}/.claude/settings.local.json` },
  ];
  if (home) {
    files.unshift({ scope: "user", path: `${home.replace(/[\\/]+$/, "")}/.claude/settings.json` });
  }
  return files;
}

/** The project root of the CLI commands: `CLAUDE_PROJECT_DIR`, else the process directory. */
export function cliProjectRoot(env: EnvSnapshot): string {
  const dir = env.CLAUDE_PROJECT_DIR;
  if (dir !== undefined && dir.trim() !== "") return dir;
  // `deno task gateguard …` runs in the repository; INIT_CWD is where it was typed.
  const invoked = env.INIT_CWD;
  return invoked !== undefined && invoked.trim() !== "" ? invoked : Deno.cwd();
}

function handlerFor(command: string): { [key: string]: JsonValue } {
  return { type: "command", command, timeout: HOOK_TIMEOUT_SECONDS };
}

/** The two PreToolUse entries of a registration running `command`. */
export function registrationGroups(command: string): JsonValue[] {
  return [
    { matcher: FILE_MATCHER, hooks: [handlerFor(command)] },
    { matcher: SHELL_MATCHER, hooks: [handlerFor(command)] },
  ];
}

/** The `hooks/hooks.json` of the plugin form, as shipped in the repository. */
export function pluginHooksJson(): string {
  const plugin = {
    description:
      "GateGuard: a fact-forcing PreToolUse gate. It denies the first edit of each file " +
      "and destructive shell commands until the agent presents concrete facts.",
    hooks: { PreToolUse: registrationGroups(PLUGIN_COMMAND) },
  };
  return `${JSON.stringify(plugin, null, 2)}\n`;
}

/** What editing a settings file produced. `text` is null when there is no file to write. */
export type EditOutcome = { ok: true; text: string | null } | { ok: false; error: string };

type Step = { kind: "edit"; edits: TextEdit[] } | { kind: "done" } | {
  kind: "error";
  error: string;
};

interface GroupScan {
  node: JsonObjectNode;
  handlers: JsonArrayNode;
  /** Indexes of the GateGuard handlers in `handlers`. */
  ours: number[];
  /** Every handler of the entry is GateGuard's, so the entry is GateGuard's. */
  pure: boolean;
}

/** The PreToolUse entries that hold at least one GateGuard handler. */
function scanGroups(pre: JsonArrayNode, command: string): GroupScan[] {
  const found: GroupScan[] = [];
  for (const node of pre.items) {
    if (node.type !== "object") continue;
    const handlers = getProperty(node, "hooks")?.value;
    if (handlers?.type !== "array") continue;
    const ours = handlers.items.flatMap((h, k) =>
      isGateGuardHandler(toValue(h), command) ? [k] : []
    );
    if (ours.length > 0) {
      found.push({ node, handlers, ours, pure: ours.length === handlers.items.length });
    }
  }
  return found;
}

/** Which gate an existing entry of ours serves, judged by the tools its matcher reaches. */
function roleOf(group: GroupScan): "file" | "shell" | "both" {
  const matcherProp = getProperty(group.node, "matcher");
  const matcher = matcherProp ? toValue(matcherProp.value) : undefined;
  const reaches = (tools: readonly string[]): boolean =>
    tools.some((t) => matcherCovers(matcher, t));
  const file = reaches(FILE_TOOLS);
  const shell = reaches(SHELL_TOOLS);
  if (file && !shell) return "file";
  return shell && !file ? "shell" : "both";
}

function indexOfProperty(object: JsonObjectNode, key: string): number {
  for (let k = object.properties.length - 1; k >= 0; k--) {
    if (object.properties[k].key === key) return k;
  }
  return -1;
}

function sameScalar(node: JsonNode | undefined, value: JsonValue): boolean {
  return node !== undefined && node.type !== "object" && node.type !== "array" &&
    node.value === value;
}

/** Brings one designated entry to the wanted matcher and handler, one splice per step. */
function fixGroup(
  text: string,
  group: GroupScan,
  matcher: string,
  command: string,
  fmt: TextFormat,
): TextEdit[] | null {
  if (group.handlers.items.length > 1) return removeChildEdits(text, group.handlers, 1);
  if (!sameScalar(getProperty(group.node, "matcher")?.value, matcher)) {
    return setPropertyEdits(text, group.node, "matcher", matcher, fmt);
  }
  const handler = group.handlers.items[0] as JsonObjectNode;
  for (const [key, value] of Object.entries(handlerFor(command))) {
    if (!sameScalar(getProperty(handler, key)?.value, value)) {
      return setPropertyEdits(text, handler, key, value, fmt);
    }
  }
  // An exec-form `args` list would be appended to our shell command.
  const args = indexOfProperty(handler, "args");
  return args >= 0 ? removeChildEdits(text, handler, args) : null;
}

function addStep(text: string, root: JsonNode, command: string, fmt: TextFormat): Step {
  if (root.type !== "object") return { kind: "error", error: "the top level is not a JSON object" };
  const hooks = getProperty(root, "hooks")?.value;
  const groups = registrationGroups(command);
  if (!hooks) {
    return {
      kind: "edit",
      edits: setPropertyEdits(text, root, "hooks", { PreToolUse: groups }, fmt),
    };
  }
  if (hooks.type !== "object") return { kind: "error", error: '"hooks" is not an object' };
  const pre = getProperty(hooks, "PreToolUse")?.value;
  if (!pre) {
    return { kind: "edit", edits: setPropertyEdits(text, hooks, "PreToolUse", groups, fmt) };
  }
  if (pre.type !== "array") return { kind: "error", error: '"hooks.PreToolUse" is not a list' };

  const scans = scanGroups(pre, command);
  const mixed = scans.find((s) => !s.pure);
  if (mixed) return { kind: "edit", edits: removeChildEdits(text, mixed.handlers, mixed.ours[0]) };
  let fileGroup = scans.find((s) => roleOf(s) === "file");
  let shellGroup = scans.find((s) => roleOf(s) === "shell");
  fileGroup ??= scans.find((s) => roleOf(s) === "both" && s !== shellGroup);
  shellGroup ??= scans.find((s) => roleOf(s) === "both" && s !== fileGroup);
  const extra = scans.find((s) => s !== fileGroup && s !== shellGroup);
  if (extra) {
    return { kind: "edit", edits: removeChildEdits(text, pre, pre.items.indexOf(extra.node)) };
  }
  for (
    const [group, matcher] of [[fileGroup, FILE_MATCHER], [shellGroup, SHELL_MATCHER]] as const
  ) {
    const edits = group ? fixGroup(text, group, matcher, command, fmt) : null;
    if (edits) return { kind: "edit", edits };
  }
  if (!fileGroup) return { kind: "edit", edits: appendItemEdits(text, pre, groups[0], fmt) };
  if (!shellGroup) return { kind: "edit", edits: appendItemEdits(text, pre, groups[1], fmt) };
  return { kind: "done" };
}

function removeStep(text: string, root: JsonNode, command: string, removedAny: boolean): Step {
  if (root.type !== "object") return { kind: "done" };
  const hooksIndex = indexOfProperty(root, "hooks");
  const hooks = hooksIndex >= 0 ? root.properties[hooksIndex].value : undefined;
  if (hooks?.type !== "object") return { kind: "done" };
  const preIndex = indexOfProperty(hooks, "PreToolUse");
  const pre = preIndex >= 0 ? hooks.properties[preIndex].value : undefined;
  if (pre?.type === "array") {
    const group = scanGroups(pre, command)[0];
    if (group) {
      return {
        kind: "edit",
        edits: group.pure
          ? removeChildEdits(text, pre, pre.items.indexOf(group.node))
          : removeChildEdits(text, group.handlers, group.ours[0]),
      };
    }
  }
  // Containers emptied by this removal go too; ones the user left empty stay.
  if (!removedAny) return { kind: "done" };
  if (pre?.type === "array" && pre.items.length === 0) {
    return { kind: "edit", edits: removeChildEdits(text, hooks, preIndex) };
  }
  if (hooks.properties.length === 0) {
    return { kind: "edit", edits: removeChildEdits(text, root, hooksIndex) };
  }
  return { kind: "done" };
}

/** Upper bound on splices per run; a settings file needs only a handful. */
const MAX_STEPS = 256;

/**
 * Adds or removes the GateGuard registration in the text of a settings file
 * (null when the file does not exist). Only the parts that differ from the
 * wanted registration change. Never throws.
 */
export function editRegistration(
  original: string | null,
  command: string,
  mode: "add" | "remove",
): EditOutcome {
  if (original === null || original.trim() === "") {
    if (mode === "remove") return { ok: true, text: original };
    return {
      ok: true,
      text: `${JSON.stringify({ hooks: { PreToolUse: registrationGroups(command) } }, null, 2)}\n`,
    };
  }
  const first = parseJsonc(original, { allowDuplicateKeys: true });
  if (!first.ok) {
    const e = first.error;
    return { ok: false, error: `cannot parse it at ${e.line}:${e.column}: ${e.message}` };
  }
  const fmt = detectFormat(original);
  let text = original;
  let root = first.root;
  for (let steps = 0; steps < MAX_STEPS; steps++) {
    const step = mode === "add"
      ? addStep(text, root, command, fmt)
      : removeStep(text, root, command, text !== original);
    if (step.kind === "error") return { ok: false, error: step.error };
    if (step.kind === "done") return { ok: true, text };
    text = applyEdits(text, step.edits);
    const reparsed = parseJsonc(text, { allowDuplicateKeys: true });
    if (!reparsed.ok) return { ok: false, error: "internal error: the edit would break the file" };
    root = reparsed.root;
  }
  return { ok: false, error: "internal error: too many changes needed" };
}

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n").map((line) => line.replace(/\r$/, ""));
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

type DiffOp = { tag: " " | "-" | "+"; line: string };

/** Longest-common-subsequence alignment of two short line lists. */
function alignLines(a: string[], b: string[]): DiffOp[] {
  // Past this size the alignment table costs too much; a plain replace still reads fine.
  if (a.length * b.length > 1_000_000) {
    return [
      ...a.map((line) => ({ tag: "-" as const, line })),
      ...b.map((line) => ({ tag: "+" as const, line })),
    ];
  }
  const width = b.length + 1;
  const table = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i * width + j] = a[i] === b[j]
        ? table[(i + 1) * width + j + 1] + 1
        : Math.max(table[(i + 1) * width + j], table[i * width + j + 1]);
    }
  }
  const ops: DiffOp[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ tag: " ", line: a[i++] });
      j++;
    } else if (
      i < a.length && (j === b.length || table[(i + 1) * width + j] >= table[i * width + j + 1])
    ) {
      ops.push({ tag: "-", line: a[i++] });
    } else {
      ops.push({ tag: "+", line: b[j++] });
    }
  }
  return ops;
}

/** Lines of context around each change in a diff. */
const CONTEXT = 3;

/** A unified diff of two texts (empty when they have the same lines). */
export function unifiedDiff(
  before: string,
  after: string,
  fromLabel: string,
  toLabel: string,
): string {
  const a = splitLines(before);
  const b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head && tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) tail++;
  const ops: DiffOp[] = [
    ...a.slice(0, head).map((line) => ({ tag: " " as const, line })),
    ...alignLines(a.slice(head, a.length - tail), b.slice(head, b.length - tail)),
    ...a.slice(a.length - tail).map((line) => ({ tag: " " as const, line })),
  ];
  const hunks: Array<[number, number]> = [];
  ops.forEach((op, idx) => {
    if (op.tag === " ") return;
    const start = Math.max(0, idx - CONTEXT);
    const end = Math.min(ops.length, idx + 1 + CONTEXT);
    const last = hunks[hunks.length - 1];
    if (last && start <= last[1]) last[1] = end;
    else hunks.push([start, end]);
  });
  if (hunks.length === 0) return "";
  const out = [`--- ${fromLabel}`, `+++ ${toLabel}`];
  let oldSeen = 0;
  let newSeen = 0;
  let pos = 0;
  const advance = (to: number): void => {
    for (; pos < to; pos++) {
      if (ops[pos].tag !== "+") oldSeen++;
      if (ops[pos].tag !== "-") newSeen++;
    }
  };
  for (const [start, end] of hunks) {
    advance(start);
    const hunk = ops.slice(start, end);
    const oldCount = hunk.filter((op) => op.tag !== "+").length;
    const newCount = hunk.filter((op) => op.tag !== "-").length;
    // An empty side names the line before the hunk, as unified diffs do.
    const oldStart = oldCount === 0 ? oldSeen : oldSeen + 1;
    const newStart = newCount === 0 ? newSeen : newSeen + 1;
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    for (const op of hunk) out.push(op.tag + op.line);
    advance(end);
  }
  return out.join("\n") + "\n";
}

/** Writes a file through a temporary sibling and a rename, keeping a symlink and the mode. */
async function writeAtomic(path: string, text: string): Promise<void> {
  let target = path;
  let mode: number | null = null;
  try {
    if ((await Deno.lstat(path)).isSymlink) target = await Deno.realPath(path);
    mode = (await Deno.stat(target)).mode;
  } catch {
    // A new file: the defaults apply.
  }
  const dir = dirName(target);
  await Deno.mkdir(dir, { recursive: true });
  const temp = `${dir}/.${baseName(target)}.${crypto.randomUUID()}.tmp`;
  try {
    await Deno.writeTextFile(temp, text, { createNew: true });
    if (mode !== null && Deno.build.os !== "windows") await Deno.chmod(temp, mode & 0o7777);
    await Deno.rename(temp, target);
  } catch (err) {
    await Deno.remove(temp).catch(() => {});
    throw err;
  }
}

/** Reads a file as text; null when it does not exist. */
async function readIfPresent(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
}

/** Usage text of `gateguard init`. */
export const INIT_USAGE = `Usage: gateguard init [--user | --local] [--config] [--dry-run]
       gateguard init --remove [--user | --local] [--dry-run]
       gateguard init --plugin

Registers GateGuard as a PreToolUse hook (${FILE_MATCHER} and ${SHELL_MATCHER})
in <project>/.claude/settings.json. The project is CLAUDE_PROJECT_DIR, else the
current directory. Running it again changes nothing; an older GateGuard entry is
updated in place and everything else in the file is kept as it is.

  --user      use ~/.claude/settings.json instead
  --local     use <project>/.claude/settings.local.json instead
  --config    also write a commented starter <project>/.gateguard.jsonc
  --dry-run   print the change as a diff and write nothing
  --remove    take GateGuard out of the settings file
  --plugin    print the hooks/hooks.json of the plugin form and exit
  --help      show this text`;

const FLAGS: Readonly<Record<string, string>> = {
  "--user": "user",
  "--local": "local",
  "--config": "config",
  "--dry-run": "dryRun",
  "--remove": "remove",
  "--plugin": "plugin",
  "--help": "help",
  "-h": "help",
};

/** Flag combinations that contradict each other. */
const CONFLICTS: ReadonlyArray<[string, string]> = [
  ["user", "local"],
  ["remove", "config"],
  ["plugin", "user"],
  ["plugin", "local"],
  ["plugin", "config"],
  ["plugin", "dryRun"],
  ["plugin", "remove"],
];

function usageError(message: string): number {
  console.error(`gateguard init: ${message}\n${INIT_USAGE}`);
  return 2;
}

function fail(message: string): number {
  console.error(`gateguard init: ${message}`);
  return 1;
}

/** Runs `gateguard init`; returns the exit code. */
export async function main(args: string[], env: EnvSnapshot): Promise<number> {
  const set = new Set<string>();
  for (const arg of args) {
    const flag = Object.hasOwn(FLAGS, arg) ? FLAGS[arg] : undefined;
    if (!flag) return usageError(`unknown option '${arg.slice(0, 80)}'`);
    set.add(flag);
  }
  if (set.has("help")) {
    console.log(INIT_USAGE);
    return 0;
  }
  for (const [x, y] of CONFLICTS) {
    if (set.has(x) && set.has(y)) {
      const spell = (f: string): string => Object.keys(FLAGS).find((k) => FLAGS[k] === f) ?? f;
      return usageError(`${spell(x)} and ${spell(y)} cannot be combined`);
    }
  }
  if (set.has("plugin")) {
    console.log(pluginHooksJson().trimEnd());
    return 0;
  }

  const projectRoot = cliProjectRoot(env);
  const scope: SettingsScope = set.has("user") ? "user" : set.has("local") ? "local" : "project";
  const file = settingsFiles(projectRoot, homeDir(env)).find((f) => f.scope === scope);
  if (!file) return fail("neither HOME nor USERPROFILE is set, so --user has no settings file");
  const windows = Deno.build.os === "windows";
  const command = registrationCommand(Deno.execPath(), import.meta.url, windows);
  const dryRun = set.has("dryRun");
  const removing = set.has("remove");

  let original: string | null;
  try {
    original = await readIfPresent(file.path);
  } catch (err) {
    return fail(`cannot read ${file.path}: ${(err as Error).message}`);
  }
  const outcome = editRegistration(original, command, removing ? "remove" : "add");
  if (!outcome.ok) {
    return fail(
      `${file.path}: ${outcome.error}. The file was left untouched; fix it by hand and run init again.`,
    );
  }
  const changed = outcome.text !== null && outcome.text !== original;
  const configPath = projectConfigPath(projectRoot);
  let configMissing = false;
  if (set.has("config")) {
    try {
      configMissing = (await readIfPresent(configPath)) === null;
    } catch (err) {
      return fail(`cannot read ${configPath}: ${(err as Error).message}`);
    }
  }

  if (dryRun) {
    const diff = changed
      ? unifiedDiff(
        original ?? "",
        outcome.text ?? "",
        original === null ? "/dev/null" : file.path,
        file.path,
      )
      : "";
    const configDiff = configMissing
      ? unifiedDiff("", STARTER_CONFIG, "/dev/null", configPath)
      : "";
    if (diff === "" && configDiff === "") console.log(`${file.path}: nothing would change.`);
    else console.log((diff + configDiff).trimEnd());
    return 0;
  }

  try {
    if (changed) await writeAtomic(file.path, outcome.text as string);
    if (configMissing) await writeAtomic(configPath, STARTER_CONFIG);
  } catch (err) {
    return fail(`cannot write: ${(err as Error).message}`);
  }
  if (removing) {
    console.log(
      changed
        ? `GateGuard removed from ${file.path}.`
        : `${file.path} does not register GateGuard; nothing to change.`,
    );
    return 0;
  }
  console.log(
    changed
      ? `GateGuard registered in ${file.path} for ${FILE_MATCHER} and ${SHELL_MATCHER}.\nCommand: ${command}`
      : `${file.path} already registers GateGuard; nothing to change.`,
  );
  if (set.has("config")) {
    console.log(
      configMissing
        ? `Wrote the starter project file ${configPath}.`
        : `${configPath} already exists; left unchanged.`,
    );
  }
  console.log(
    "Check the setup with `gateguard doctor`. Installing GateGuard as a plugin instead? " +
      "`gateguard init --plugin` prints its hooks/hooks.json.",
  );
  return 0;
}
