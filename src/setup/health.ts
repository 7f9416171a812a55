/**
 * Why a registered GateGuard would not actually gate anything, as one line
 * per cause with its fix: settings that switch every hook or GateGuard off,
 * handler fields that make Claude Code skip it or ignore its answer, and a
 * registered program that cannot start. `gateguard doctor` fails on each;
 * `gateguard init` reports the ones it cannot fix itself.
 *
 * Pure: the program checks take what the file system said about a path.
 *
 * @module
 */

import { isOffSwitch } from "../config/env.ts";
import type { JsonValue } from "../config/jsonc.ts";
import { ON_FAILURE, type Registration } from "./claude_settings.ts";
import { printable } from "../platform/terminal_text.ts";
import { simpleWords, sourceRunConfig } from "./recognise.ts";
import { isRecord } from "../platform/json.ts";
import { baseName, trimSeparators } from "../platform/path.ts";
import { RUN_CONFIG } from "../platform/permissions.ts";

/** Shortest hook timeout, in seconds, that leaves GateGuard time to answer under load. */
export const MIN_TIMEOUT_SECONDS = 2;

/** Handler fields that stop a handler from gating, and what each does. */
const SKIPPING_FIELDS: ReadonlyArray<[string, (value: JsonValue) => boolean, string]> = [
  ["async", (v) => v === true, "runs in the background, so its denial arrives after the call ran"],
  ["if", () => true, 'has an "if" filter, so it runs only for the calls that filter picks'],
];

function show(value: unknown): string {
  return JSON.stringify(value)?.slice(0, 80) ?? String(value);
}

/**
 * What a settings file turns off for every hook or for GateGuard:
 * `disableAllHooks`, and an `env` block that switches GateGuard off.
 */
export function settingsProblems(path: string, value: JsonValue): string[] {
  if (!isRecord(value)) return [];
  const problems: string[] = [];
  if (value.disableAllHooks === true) {
    problems.push(
      `${path} sets "disableAllHooks": true, so no hook runs, GateGuard included; ` +
        'fix: remove "disableAllHooks" from it',
    );
  }
  const env = value.env;
  if (isRecord(env)) {
    if (env.GATEGUARD_DISABLED === "1") {
      problems.push(
        `the env block of ${path} sets GATEGUARD_DISABLED=1, which switches GateGuard off; ` +
          "fix: remove that variable from the block",
      );
    }
    if (typeof env.ECC_GATEGUARD === "string" && isOffSwitch(env.ECC_GATEGUARD)) {
      problems.push(
        `the env block of ${path} sets ECC_GATEGUARD=${
          show(env.ECC_GATEGUARD)
        }, which switches GateGuard off; fix: remove that variable from the block`,
      );
    }
  }
  return problems;
}

/** What in one GateGuard handler (parsed JSON) keeps it from gating. */
export function handlerProblems(handler: Record<string, JsonValue>, origin: string): string[] {
  const problems: string[] = [];
  const fix = "fix: run `gateguard init` (it rewrites GateGuard's own entries)";
  if (handler.type !== "command") {
    problems.push(
      `the GateGuard handler in ${origin} has "type": ${
        show(handler.type ?? null)
      }, not "command", so Claude Code does not run it as GateGuard needs; ${fix}`,
    );
  }
  for (const [field, applies, effect] of SKIPPING_FIELDS) {
    if (Object.hasOwn(handler, field) && applies(handler[field])) {
      problems.push(`the GateGuard handler in ${origin} ${effect}; ${fix}`);
    }
  }
  if (handler.onFailure !== ON_FAILURE) {
    problems.push(
      `the GateGuard handler in ${origin} ${
        Object.hasOwn(handler, "onFailure")
          ? `has "onFailure": ${show(handler.onFailure)}`
          : 'lacks "onFailure": "block"'
      }, so a hook that cannot start, crashes or times out lets the call through; ${fix}`,
    );
  }
  const timeout = handler.timeout;
  if (
    timeout !== undefined &&
    (typeof timeout !== "number" || !(timeout >= MIN_TIMEOUT_SECONDS))
  ) {
    problems.push(
      `the GateGuard handler in ${origin} has "timeout": ${show(timeout)}; ` +
        `under ${MIN_TIMEOUT_SECONDS} seconds the hook is cut off and the call goes through; ${fix}`,
    );
  }
  return problems;
}

/** What the file system says about a path a command starts. */
export type ProgramState = "missing" | "directory" | "not-executable" | "ok";

/** The program a command starts: a path, a bare name to find on PATH, or unknown. */
export type Program =
  | { kind: "path"; path: string }
  | { kind: "bare"; name: string }
  | { kind: "unknown" };

/** The program of a hook command; `unknown` when it comes from a variable or shell syntax. */
export function programOf(command: string): Program {
  // Leading NAME=value words set the environment; the program is the word after them.
  const first = simpleWords(command)?.find((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
  if (first === undefined || first.includes("$")) return { kind: "unknown" };
  if (/[\\/]/.test(first)) return { kind: "path", path: first };
  return { kind: "bare", name: first };
}

/** Where a bare program name is found on a PATH value (`;` on Windows), or null. */
export function findOnPath(
  name: string,
  pathVariable: string | undefined,
  windows: boolean,
  state: (path: string) => ProgramState,
  cwd: string,
): string | null {
  const names = windows && !/\.[A-Za-z]+$/.test(name) ? [`${name}.exe`, name] : [name];
  for (const dir of (pathVariable ?? "").split(windows ? ";" : ":")) {
    // An empty entry means the directory the hook starts in.
    const base = dir === "" ? cwd : trimSeparators(dir);
    for (const candidate of names) {
      const path = `${base}/${candidate}`;
      if (state(path) === "ok") return path;
    }
  }
  return null;
}

/** Why the program of a registered command cannot start, if it cannot. */
export function programProblems(
  command: string,
  state: (path: string) => ProgramState,
  onPath: (name: string) => string | null,
): string[] {
  const program = programOf(command);
  const again = "fix: run `gateguard init` again from the installed binary";
  if (program.kind === "bare") {
    return onPath(program.name) === null
      ? [
        `the registered command starts ${
          show(program.name)
        }, which is not on PATH, so the hook cannot start; ${again} (it registers an absolute path)`,
      ]
      : [];
  }
  if (program.kind !== "path") return [];
  const name = show(program.path);
  switch (state(program.path)) {
    case "missing":
      return [`registered command ${name} does not exist, so the hook cannot run; ${again}`];
    case "directory":
      return [`registered command ${name} is a directory, so the hook cannot run; ${again}`];
    case "not-executable":
      return [
        `registered command ${name} is not executable, so the hook cannot run; ` +
        `fix: chmod +x ${program.path.includes(" ") ? name : program.path}`,
      ];
    case "ok":
      return [];
  }
}

/** The config names Deno finds in a folder by itself, which make it search the folders above. */
const FOUND_CONFIG_NAMES: readonly string[] = ["deno.json", "deno.jsonc"];

/**
 * Why a from-source command (`deno run … --config …`) would stop on a file
 * above the checkout: named with the checkout's own `deno.json`, Deno first
 * reads the `deno.json`, `deno.jsonc` and `package.json` of every folder
 * above it, any of which the agent can write (see `RUN_CONFIG`).
 */
export function sourceConfigProblems(command: string): string[] {
  const config = sourceRunConfig(command);
  if (config === null || !FOUND_CONFIG_NAMES.includes(baseName(config))) return [];
  return [
    `the registered command runs Deno with ${show(config)}, so before GateGuard starts Deno ` +
    "reads the deno.json, deno.jsonc and package.json of every folder above the checkout, " +
    `where a broken file stops every call; fix: run \`gateguard init\` again from the checkout ` +
    `(it registers ${RUN_CONFIG})`,
  ];
}

/** How the program checks reach the file system and PATH. */
export interface ProgramLookup {
  state: (path: string) => ProgramState;
  onPath: (name: string) => string | null;
}

/**
 * Every cause that keeps the registered GateGuard from gating: settings
 * files (path and parsed value) that switch hooks or GateGuard off, and
 * GateGuard's handlers and programs that would not run as needed.
 */
export function healthProblems(
  parsed: ReadonlyArray<[string, JsonValue]>,
  registrations: readonly Registration[],
  lookup: ProgramLookup,
): string[] {
  // The same handler in two entries is one cause.
  return [
    ...new Set([
      ...parsed.flatMap(([path, value]) => settingsProblems(printable(path), value)),
      ...registrations.flatMap((r) => handlerProblems(r.handler, r.origin)),
      ...[...new Set(registrations.map((r) => r.command))].flatMap((command) => [
        ...programProblems(command, lookup.state, lookup.onPath),
        ...sourceConfigProblems(command),
      ]),
    ]),
  ];
}
