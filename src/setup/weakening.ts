/**
 * Whether a change to one of GateGuard's control files would switch it off
 * or weaken it: the pure checks behind the self-protection rule. Each
 * compares the file before and after the change and names each thing the
 * change turns off, so the user who is asked (or the agent who is denied)
 * learns what is at stake. Ordinary changes give no weakening.
 *
 * What counts, in Claude Code's settings and in every other agent's hook
 * file alike:
 * - GateGuard's own hook entries removed or changed (matcher or handler,
 *   `onFailure` included), in any event;
 * - any other hook entry added or changed, in any event: it runs a command
 *   of its own, which could undo GateGuard at the next start;
 * - the keys that switch hooks off or run commands of their own
 *   (`disableAllHooks`, Gemini CLI's `hooksConfig`, a status line, ...);
 * - text the agent would reject (Claude Code, Codex CLI, Copilot CLI and
 *   Cursor read strict JSON, so a comment or a trailing comma drops the
 *   whole file);
 * - in Claude Code's `env` block, any variable that configures GateGuard or
 *   moves what it reads or how it starts (`HOME`, `PATH`, `DENO_*`, ...).
 *
 * GateGuard's project file is judged by its keys: a change may only
 * tighten. A change whose result cannot be told (the file unreadable, a
 * replacement that does not apply, content the gate does not read, work
 * past the budget) has no answer: the caller fails closed.
 *
 * @module
 */

import { type JsonValue, parseJsonc, toValue } from "../config/jsonc.ts";
import type { FileChange } from "../tools/call.ts";
import { configuresGateGuard, movesGateGuard } from "../config/env.ts";
import type { FsPort } from "../platform/fs_port.ts";
import type { WorkBudget } from "../platform/budget.ts";
import { textAfterChange } from "../change/after_text.ts";
import { isGateGuardHandler } from "./claude_settings.ts";
import { isCopilotHandler } from "./agent_registrations.ts";
import { parseSettings, readSettingsText } from "./settings_io.ts";
import { canonicalJson, isRecord } from "../platform/json.ts";
import type { SurfaceRow } from "../control/surface.ts";

/** A key outside `hooks` whose change switches hooks off, or runs a command of its own. */
interface Switch {
  path: readonly string[];
  /** What changing it does, after `"<key>" would change: `. */
  effect: string;
}

/** How one agent's hook file is read. */
interface HookFileShape {
  /** The agent's name in the phrases. */
  title: string;
  /** The agent rejects the whole file unless it is strict JSON. */
  strictJson: boolean;
  switches: readonly Switch[];
  isOurs(handler: unknown, ownCommand: string | undefined): boolean;
}

const RUNS_A_COMMAND = "it runs a command GateGuard does not check, which could undo it";

const STARTS_MCP_SERVERS = "it changes which MCP servers the agent starts, programs that run " +
  "outside GateGuard's gates";

const CLAUDE_SHAPE: HookFileShape = {
  title: "Claude Code",
  strictJson: true,
  switches: [
    { path: ["allowManagedHooksOnly"], effect: "it can stop every hook but managed ones" },
    { path: ["statusLine"], effect: RUNS_A_COMMAND },
    { path: ["apiKeyHelper"], effect: RUNS_A_COMMAND },
    { path: ["awsAuthRefresh"], effect: RUNS_A_COMMAND },
    { path: ["awsCredentialExport"], effect: RUNS_A_COMMAND },
    { path: ["otelHeadersHelper"], effect: RUNS_A_COMMAND },
    { path: ["fileSuggestion"], effect: RUNS_A_COMMAND },
    {
      path: ["enabledPlugins"],
      effect: "it can switch off GateGuard's plugin, or bring in hooks of another",
    },
    { path: ["extraKnownMarketplaces"], effect: "it can bring in plugins with hooks of their own" },
    { path: ["enableAllProjectMcpServers"], effect: STARTS_MCP_SERVERS },
    { path: ["enabledMcpjsonServers"], effect: STARTS_MCP_SERVERS },
  ],
  isOurs: isGateGuardHandler,
};

/** An agent whose settings or hook file GateGuard reads. */
export type HookFileAgent = Exclude<SurfaceRow["agent"], "gateguard" | "shell">;

/** Each agent's hook file, by the agent of its control-surface row. */
const HOOK_FILE_SHAPES: Readonly<Record<HookFileAgent, HookFileShape>> = {
  claude: CLAUDE_SHAPE,
  codex: { title: "Codex CLI", strictJson: true, switches: [], isOurs: isGateGuardHandler },
  gemini: {
    title: "Gemini CLI",
    // Gemini CLI strips comments before it parses its settings.
    strictJson: false,
    switches: [
      { path: ["hooksConfig"], effect: "it decides whether and which hooks Gemini CLI runs" },
      { path: ["tools", "enableHooks"], effect: "it decides whether Gemini CLI runs hooks" },
      {
        path: ["security", "folderTrust"],
        effect: "it decides whether Gemini CLI trusts the project, and so runs its hooks",
      },
      { path: ["mcpServers"], effect: STARTS_MCP_SERVERS },
      { path: ["mcp"], effect: STARTS_MCP_SERVERS },
      // Commands Gemini CLI 0.61.0 runs itself: tool discovery at start, each call of a
      // discovered tool, the pager every shell command's output goes through, the sandbox.
      { path: ["tools", "discoveryCommand"], effect: RUNS_A_COMMAND },
      { path: ["tools", "callCommand"], effect: RUNS_A_COMMAND },
      { path: ["tools", "shell", "pager"], effect: RUNS_A_COMMAND },
      { path: ["tools", "sandbox"], effect: RUNS_A_COMMAND },
    ],
    isOurs: isGateGuardHandler,
  },
  copilot: {
    title: "Copilot CLI",
    strictJson: true,
    switches: [
      { path: ["disableAllHooks"], effect: "it can stop every hook, GateGuard included" },
      { path: ["version"], effect: "Copilot CLI may no longer read the file" },
    ],
    isOurs: (handler, ownCommand) =>
      isCopilotHandler(handler, ownCommand ?? "") || isGateGuardHandler(handler, ownCommand),
  },
  cursor: {
    title: "Cursor",
    strictJson: true,
    switches: [{ path: ["version"], effect: "Cursor may no longer read the file" }],
    isOurs: isGateGuardHandler,
  },
};

function parsed(text: string | null): JsonValue | undefined {
  if (text === null || text.trim() === "") return {};
  const outcome = parseSettings(text);
  return outcome.kind === "parsed" ? outcome.value : undefined;
}

function strictJson(text: string): boolean {
  if (text.trim() === "") return true;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The hook entries of a parsed file as canonical texts, split into GateGuard's and the rest. */
interface HookEntries {
  ours: string[];
  others: Map<string, string[]>;
  /** Values under `hooks` that are not lists of entries (`hooks.enabled`, ...). */
  settings: string[];
}

function hookEntries(value: JsonValue, shape: HookFileShape, ownCommand?: string): HookEntries {
  const found: HookEntries = { ours: [], others: new Map(), settings: [] };
  const hooks = isRecord(value) ? value.hooks : undefined;
  if (hooks === undefined) return found;
  if (!isRecord(hooks)) {
    found.settings.push(canonicalJson(hooks));
    return found;
  }
  const add = (event: string, group: JsonValue, handler: JsonValue): void => {
    const key = canonicalJson([event, group, handler]);
    if (shape.isOurs(handler, ownCommand)) found.ours.push(key);
    else found.others.set(event, [...(found.others.get(event) ?? []), key]);
  };
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) {
      found.settings.push(canonicalJson([event, list]));
      continue;
    }
    for (const item of list) {
      if (isRecord(item) && Array.isArray(item.hooks)) {
        const { hooks: handlers, ...group } = item;
        for (const handler of handlers as JsonValue[]) add(event, group, handler);
      } else add(event, null, item);
    }
  }
  return found;
}

/** The entries of `from` that `to` does not hold, counted as a multiset. */
function missing(from: readonly string[], to: readonly string[]): string[] {
  const left = [...to];
  return from.filter((entry) => {
    const k = left.indexOf(entry);
    if (k < 0) return true;
    left.splice(k, 1);
    return false;
  });
}

function at(value: JsonValue | undefined, path: readonly string[]): string {
  let node: JsonValue | undefined = value;
  for (const key of path) node = isRecord(node) ? node[key] : undefined;
  return node === undefined ? "" : canonicalJson(node);
}

function envOf(value: JsonValue | undefined): Map<string, string> {
  const env = isRecord(value) ? value.env : undefined;
  const found = new Map<string, string>();
  if (!isRecord(env)) return found;
  for (const [name, v] of Object.entries(env)) {
    if (configuresGateGuard(name) || movesGateGuard(name)) {
      found.set(name, JSON.stringify(v));
    }
  }
  return found;
}

function envWeakenings(old: JsonValue | undefined, next: JsonValue): string[] {
  const found: string[] = [];
  const oldEnv = envOf(old);
  const nextEnv = envOf(next);
  for (const name of new Set([...oldEnv.keys(), ...nextEnv.keys()])) {
    const from = oldEnv.get(name);
    const to = nextEnv.get(name);
    if (from === to) continue;
    // GateGuard's own variables are never named: the phrase reaches the
    // model, and some of them switch GateGuard off.
    if (configuresGateGuard(name)) {
      found.push(
        to === undefined
          ? "the env block would drop a variable that configures GateGuard"
          : "the env block would set a variable that configures GateGuard",
      );
      continue;
    }
    const why = "which moves what GateGuard reads or changes how it starts";
    found.push(
      to === undefined
        ? `the env block would drop ${name}, ${why}`
        : `the env block would set ${name}=${to.slice(0, 80)}, ${why}`,
    );
  }
  return [...new Set(found)];
}

/**
 * What changing an agent's settings or hook file from `before` (null when
 * it does not exist) to `after` would turn off or weaken, one phrase each;
 * empty for an ordinary change. `agent` picks how the file is read (its
 * control-surface row's agent); `ownCommand` is this build's registered
 * command, when known; GateGuard's registered shapes are recognised without it.
 */
export function hookFileWeakenings(
  agent: HookFileAgent,
  before: string | null,
  after: string,
  ownCommand?: string,
): string[] {
  const shape = HOOK_FILE_SHAPES[agent];
  const old = parsed(before);
  const next = parsed(after);
  const oldEntries = old === undefined ? null : hookEntries(old, shape, ownCommand);
  if (next === undefined) {
    return [
      (oldEntries?.ours.length ?? 0) > 0
        ? `the file would no longer parse, so ${shape.title} would drop GateGuard's hook entries`
        : `the file would no longer parse, so ${shape.title} would ignore it`,
    ];
  }
  const found: string[] = [];
  if (shape.strictJson && !strictJson(after)) {
    found.push(
      `${shape.title} reads this file as strict JSON (no comments, no trailing commas) and ` +
        "would ignore all of it, GateGuard's hook entries included",
    );
  }
  const nextEntries = hookEntries(next, shape, ownCommand);
  const lost = missing(oldEntries?.ours ?? [], nextEntries.ours);
  if (lost.length > 0) {
    found.push(
      `${lost.length} of GateGuard's hook entries would be removed or changed, ` +
        "so some tools would no longer be gated",
    );
  }
  for (const [event, entries] of nextEntries.others) {
    const added = missing(entries, oldEntries?.others.get(event) ?? []);
    if (added.length > 0) {
      found.push(
        `${added.length} ${event} hook entr${added.length === 1 ? "y" : "ies"} would be added ` +
          `or changed: ${RUNS_A_COMMAND}`,
      );
    }
  }
  const oldSettings = [...(oldEntries?.settings ?? [])].sort().join("\n");
  if (oldSettings !== [...nextEntries.settings].sort().join("\n")) {
    found.push("a setting inside the hooks block would change, which can stop hooks from running");
  }
  const wasOff = isRecord(old) && old.disableAllHooks === true;
  if (agent === "claude" && isRecord(next) && next.disableAllHooks === true && !wasOff) {
    found.push('"disableAllHooks": true would stop every hook, GateGuard included');
  }
  for (const { path, effect } of shape.switches) {
    if (at(old, path) !== at(next, path)) found.push(`"${path.join(".")}" would change: ${effect}`);
  }
  if (agent === "claude") found.push(...envWeakenings(old, next));
  return found;
}

/**
 * What changing a Claude Code settings file from `before` to `after` would
 * turn off or weaken (see `hookFileWeakenings`).
 */
export function settingsWeakenings(
  before: string | null,
  after: string,
  ownCommand?: string,
): string[] {
  return hookFileWeakenings("claude", before, after, ownCommand);
}

function jsonc(text: string | null): Record<string, JsonValue> | undefined {
  if (text === null || text.trim() === "") return {};
  const result = parseJsonc(text, { allowDuplicateKeys: true });
  if (!result.ok) return undefined;
  const value = toValue(result.root);
  return isRecord(value) ? value : undefined;
}

function strings(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.map((v) => canonicalJson(v)) : [];
}

/**
 * What changing GateGuard's project file from `before` to `after` would
 * loosen, one phrase each: new exempt globs, a gate switched off, fewer
 * full denials, a denial cap set or lowered, destructive phrases or packs
 * dropped, a pack switched off. Tightening changes, and the project note,
 * give none. A file that no longer parses is ignored by GateGuard, which
 * drops what it tightened: a weakening.
 */
export function projectConfigWeakenings(before: string | null, after: string): string[] {
  const old = jsonc(before) ?? {};
  const next = jsonc(after);
  if (next === undefined) {
    return ["the file would no longer parse, so GateGuard would ignore all of it"];
  }
  const found: string[] = [];
  const gained = (key: string, list: (v: JsonValue | undefined) => string[]) =>
    missing(list(next[key]), list(old[key])).length > 0;
  if (gained("exemptGlobs", strings)) {
    found.push("new exemptGlobs would exempt files from the gate");
  }
  for (const key of ["fileGates", "routineShell"]) {
    if (next[key] === false && old[key] !== false) {
      found.push(`"${key}": false would switch a gate off`);
    }
  }
  const number = (v: JsonValue | undefined, fallback: number) =>
    typeof v === "number" ? v : fallback;
  if (number(next.fullDenials, 3) < number(old.fullDenials, 3)) {
    found.push("a lower fullDenials would shorten the denials sooner");
  }
  if (number(next.maxDenials, Infinity) < number(old.maxDenials, Infinity)) {
    found.push("a denial cap would let first touches through after a number of denials");
  }
  if (missing(strings(old.destructiveCommands), strings(next.destructiveCommands)).length > 0) {
    found.push("destructiveCommands phrases would be dropped");
  }
  const packs = (v: JsonValue | undefined, sign: string) =>
    strings(v).filter((p) => p.startsWith(`"${sign}`));
  if (
    missing(packs(next.destructivePacks, "-"), packs(old.destructivePacks, "-")).length > 0 ||
    missing(packs(old.destructivePacks, "+"), packs(next.destructivePacks, "+")).length > 0
  ) {
    found.push("destructivePacks would switch a pack of destructive-command rules off");
  }
  return found;
}

/** Work units charged per character of the texts compared (parsed twice, compared). */
const UNITS_PER_CHARACTER = 4;

/** How a change's before and after texts are compared. */
export type Judge = (before: string | null, after: string) => string[];

/**
 * What a typed `change` to the file at `path` would turn off or weaken,
 * by `judge`, reading the current text through `fs`; null when the
 * outcome cannot be told: the file cannot be read, the change does not
 * apply to it, or `budget` cannot pay for applying and comparing it (every
 * step is priced before its text is built: `change/after_text.ts`).
 */
export async function changeWeakenings(
  fs: FsPort,
  path: string,
  change: FileChange,
  judge: Judge,
  budget: WorkBudget,
): Promise<string[] | null> {
  if (change.kind !== "edits" && change.kind !== "write") return null;
  const read = await readSettingsText(fs, path);
  if (read.kind === "unreadable") return null;
  const before = read.kind === "text" ? read.text : null;
  if (!budget.spend(before?.length ?? 0, "settings")) return null;
  const after = textAfterChange(before, change, budget);
  if (after === "cannot-tell" || after === "over-budget") return null;
  const units = ((before?.length ?? 0) + after.length) * UNITS_PER_CHARACTER;
  if (!budget.spend(units, "settings")) return null;
  return judge(before, after);
}
