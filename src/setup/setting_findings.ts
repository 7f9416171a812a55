/**
 * What `gateguard doctor` finds about settings that look meaningful but do
 * nothing, and about other GateGuard-like hooks registered beside this one.
 *
 * A setting that does nothing is a trap: `GATEGUARD_DISABLED=true` reads
 * as "off" yet leaves GateGuard on, `"-nosuch"` reads as a pack switched
 * off yet switches nothing, and the only trace at run time is a stderr line
 * the user of an agent never sees. Each one is a `FAIL` naming the value,
 * where it came from and what would work. Two gates of the same family on
 * one agent (ECC's JavaScript port, the `gateguard-ai` Python package)
 * answer every call twice, and by default keep their state in the same
 * `~/.gateguard`: each is a `WARN`.
 *
 * Pure: every function decides on values already read.
 *
 * @module
 */

import type { EnvName } from "../config/env.ts";
import { envPackSwitches, HOOK_IDS, type Settings } from "../config/settings.ts";
import type { JsonValue } from "../config/jsonc.ts";
import { isRecord } from "../platform/json.ts";
import { baseName, joinPath } from "../platform/path.ts";
import { printable, quoted } from "../platform/terminal_text.ts";
import { PACK_MANIFEST, selectPacks } from "../shell/packs/mod.ts";
import type { Finding, HookEnv } from "./claude_doctor.ts";

/** Where an environment value came from, as a finding names it. */
function envSource(variable: EnvName, hookEnv: HookEnv): string {
  const from = hookEnv.setBy.get(variable);
  return from === undefined ? `${variable}` : `${variable} (env block of ${printable(from)})`;
}

/** One pack switch's problem in the words of the pack registry, or null when it works. */
function packSwitchProblem(entry: string): string | null {
  return selectPacks([entry]).warnings[0] ?? null;
}

/**
 * Pack switches that do nothing (an unknown pack) or are refused (the core
 * pack switched off), in the project file and in
 * `GATEGUARD_DESTRUCTIVE_PACKS`, whether or not the file is trusted.
 */
export function packSwitchFindings(settings: Settings, hookEnv: HookEnv): Finding[] {
  const file = settings.projectFile;
  const sources: Array<[string, readonly string[]]> = [];
  if (file?.state === "loaded") sources.push([file.path, file.config.destructivePacks ?? []]);
  sources.push([
    envSource("GATEGUARD_DESTRUCTIVE_PACKS", hookEnv),
    envPackSwitches(hookEnv.env),
  ]);
  const ids = PACK_MANIFEST.map((p) => p.id).join(", ");
  const findings: Finding[] = [];
  for (const [source, entries] of sources) {
    for (const entry of entries) {
      const problem = packSwitchProblem(entry);
      if (problem === null) continue;
      const refused = problem.includes("cannot be switched off");
      findings.push({
        level: "FAIL",
        text: `destructive pack switch ${quoted(entry.trim(), 40)} in ${printable(source)} ${
          refused ? "is refused" : "does nothing"
        }: ${printable(problem)}; fix: ${
          refused ? "remove it" : `name one of ${ids}, with + (on) or - (off)`
        }`,
      });
    }
  }
  return findings;
}

const norm = (value: string): string => value.trim().toLowerCase();
const TRUTHY = ["1", "true", "on", "enabled", "enable", "yes"];
const FALSY = ["", "0", "false", "off", "no"];

/**
 * The switch variables, each with the values that do what they say (on,
 * or plainly not on) and what does work. Any other value is a spelling the
 * switch does not know, so it leaves the default in place.
 */
const SWITCH_SPELLINGS: ReadonlyArray<{
  variable: EnvName;
  understood(value: string): boolean;
  works: string;
}> = [
  {
    variable: "GATEGUARD_DISABLED",
    understood: (v) => v === "1" || FALSY.includes(norm(v)),
    works: "only exactly 1 switches every gate off",
  },
  {
    variable: "ECC_GATEGUARD",
    understood: (v) =>
      ["0", "false", "off", "disabled", "disable", ...TRUTHY, ""].includes(norm(v)),
    works: "0, false, off, disabled or disable switch every gate off",
  },
  {
    variable: "GATEGUARD_BASH_ROUTINE_DISABLED",
    understood: (v) => [...TRUTHY, ...FALSY].includes(norm(v)),
    works: "1, true, on, enabled, enable or yes switch the routine shell gate off",
  },
  {
    variable: "GATEGUARD_METRICS",
    understood: (v) => [...TRUTHY, ...FALSY].includes(norm(v)),
    works: "1, true, on, enabled, enable or yes switch the metrics on",
  },
  {
    variable: "GATEGUARD_EXTERNAL_CONTRACT_QUESTION",
    understood: (v) => [...TRUTHY, ...FALSY].includes(norm(v)),
    works: "1, true, on, enabled, enable or yes add the question",
  },
];

/**
 * Switch variables set to a spelling they do not know (`GATEGUARD_DISABLED=
 * true`), and hook ids in `ECC_DISABLED_HOOKS` that name no hook.
 */
export function switchSpellingFindings(hookEnv: HookEnv): Finding[] {
  const findings: Finding[] = [];
  for (const { variable, understood, works } of SWITCH_SPELLINGS) {
    const value = hookEnv.env[variable];
    if (value === undefined || understood(value)) continue;
    findings.push({
      level: "FAIL",
      text: `${envSource(variable, hookEnv)}=${quoted(value, 40)} does nothing: ${works}; ` +
        "fix: use one of those spellings, or remove it",
    });
  }
  const known: readonly string[] = Object.values(HOOK_IDS);
  const listed = (hookEnv.env.ECC_DISABLED_HOOKS ?? "").split(",").map((s) => s.trim());
  for (const id of listed) {
    if (id === "" || known.includes(id)) continue;
    findings.push({
      level: "FAIL",
      text: `${envSource("ECC_DISABLED_HOOKS", hookEnv)} lists ${
        quoted(id, 60)
      }, which names no hook and does nothing; fix: use one of ${known.join(", ")}, or remove it`,
    });
  }
  return findings;
}

/** The other gates of GateGuard's family, each by how its hook command is recognised. */
const NEIGHBOURS: ReadonlyArray<{ name: string; matches(command: string): boolean }> = [
  {
    // ECC registers scripts/hooks/gateguard-fact-force.js, directly or through its flag runner.
    name: "ECC's GateGuard hook (gateguard-fact-force)",
    matches: (command) => command.includes("gateguard-fact-force"),
  },
  {
    // The Python package installs these two console scripts and registers them by name.
    name: "the gateguard-ai Python hook",
    matches: (command) => {
      const program = baseName(command.trim().split(/\s+/)[0] ?? "").replace(/\.exe$/i, "");
      return program === "gateguard-hook" || program === "gateguard-read-tracker";
    },
  },
];

/** Every hook command of a parsed settings file, with its event. */
function hookCommands(value: JsonValue): Array<{ event: string; command: string }> {
  const hooks = isRecord(value) ? value.hooks : undefined;
  if (!isRecord(hooks)) return [];
  const found: Array<{ event: string; command: string }> = [];
  for (const [event, groups] of Object.entries(hooks)) {
    for (const group of Array.isArray(groups) ? groups : []) {
      const handlers = isRecord(group) ? group.hooks : undefined;
      for (const handler of Array.isArray(handlers) ? handlers : []) {
        if (isRecord(handler) && typeof handler.command === "string") {
          found.push({ event, command: handler.command });
        }
      }
    }
  }
  return found;
}

/**
 * Other GateGuard-like hooks registered in the settings files, each a
 * `WARN`; one more when this GateGuard keeps its state in `~/.gateguard`,
 * the directory those gates use too.
 */
export function neighbourFindings(
  parsed: ReadonlyArray<[string, JsonValue]>,
  stateDir: string,
  home: string | null,
): Finding[] {
  const findings: Finding[] = [];
  for (const [path, value] of parsed) {
    for (const { event, command } of hookCommands(value)) {
      const neighbour = NEIGHBOURS.find((n) => n.matches(command));
      if (neighbour === undefined) continue;
      findings.push({
        level: "WARN",
        text: `${printable(path)}: ${neighbour.name} is registered beside this GateGuard ` +
          `(${event}: ${quoted(command, 120)}); both gate every call and ask different ` +
          "questions; fix: keep one of them",
      });
    }
  }
  const shared = home === null ? null : joinPath(home, ".gateguard");
  if (findings.length > 0 && shared !== null && trimEnd(stateDir) === shared) {
    findings.push({
      level: "WARN",
      text:
        `this GateGuard keeps its state in ${
          printable(shared)
        }, where those gates keep theirs too, so each reads the other's state as its own; fix: ` +
        "remove the other gate, or set GATEGUARD_STATE_DIR to a directory of this one's own",
    });
  }
  return findings;
}

function trimEnd(path: string): string {
  return path.replace(/[\\/]+$/, "");
}
