/**
 * `gateguard init --agent <codex|gemini|copilot|cursor>`: registers
 * GateGuard in that agent's hook file (project level, or `--user`), updates
 * an older registration in place, or takes it out (`--remove`), and says
 * which trust step the agent needs before it runs the hook at all.
 *
 * Command-line glue only: the layouts and edits live in
 * `src/setup/agent_registrations.ts` and `src/setup/agent_edit.ts`.
 *
 * @module
 */

import type { EnvSnapshot } from "../config/env.ts";
import { homeDir } from "../config/settings.ts";
import { BARE_COMMAND, chooseCommand, registrationCommand } from "../setup/command.ts";
import { findOnPath } from "../setup/health.ts";
import {
  AGENT_REGISTRATIONS,
  agentCommand,
  type SetupAgent,
} from "../setup/agent_registrations.ts";
import { editAgentRegistration } from "../setup/agent_edit.ts";
import { unifiedDiff } from "../setup/diff.ts";
import { programState, readSettingsText, writeAtomic, writeTarget } from "../setup/settings_io.ts";
import { printable } from "../platform/terminal_text.ts";
import { denoFs } from "../platform/fs_port.ts";
import { cliProjectRoot } from "./project_root.ts";

/** Usage text of `gateguard init --agent`. */
export const INIT_AGENT_USAGE =
  `Usage: gateguard init --agent <codex|gemini|copilot|cursor> [--user] [--dry-run] [--remove]

Registers GateGuard as the pre-tool hook of that agent, in its project file
(.codex/hooks.json, .gemini/settings.json, .github/hooks/gateguard.json,
.cursor/hooks.json) or, with --user, its file under your home directory.
Running it again changes nothing; everything else in the file is kept.

  --user      use the agent's file under your home directory
  --dry-run   print the change as a diff and write nothing
  --remove    take GateGuard out of the file
  --help      show this text`;

const FLAGS: Readonly<Record<string, string>> = {
  "--user": "user",
  "--dry-run": "dryRun",
  "--remove": "remove",
  "--help": "help",
  "-h": "help",
};

function fail(message: string, code = 1): number {
  console.error(`gateguard init: ${message}${code === 2 ? `\n${INIT_AGENT_USAGE}` : ""}`);
  return code;
}

/** Runs `gateguard init --agent <agent> [flags]`; returns the exit code. */
export async function initAgent(
  agent: SetupAgent,
  args: readonly string[],
  env: EnvSnapshot,
): Promise<number> {
  const set = new Set<string>();
  for (const arg of args) {
    const flag = Object.hasOwn(FLAGS, arg) ? FLAGS[arg] : undefined;
    if (!flag) return fail(`unknown option for --agent ${agent}: '${arg.slice(0, 80)}'`, 2);
    set.add(flag);
  }
  if (set.has("help")) {
    console.log(INIT_AGENT_USAGE);
    return 0;
  }
  const reg = AGENT_REGISTRATIONS[agent];
  const projectRoot = cliProjectRoot(env);
  const home = homeDir(env);
  if (set.has("user") && home === null) {
    return fail("neither HOME nor USERPROFILE is set, so --user has no file");
  }
  const path = set.has("user") && home !== null ? reg.userFile(home) : reg.projectFile(projectRoot);
  const windows = Deno.build.os === "windows";
  // A project file is shared like Claude Code's: the bare name when it is this binary.
  const choice = set.has("user") ? null : chooseCommand({
    execPath: Deno.execPath(),
    moduleUrl: import.meta.url,
    windows,
    onPath: findOnPath(BARE_COMMAND, env.PATH, windows, programState, projectRoot),
    realPath: (p) => {
      const real = denoFs.realPath(p);
      return real.ok ? real.path : null;
    },
  });
  const command = choice?.command ?? registrationCommand(Deno.execPath(), import.meta.url, windows);
  const removing = set.has("remove");

  const read = await readSettingsText(denoFs, path);
  if (read.kind === "unreadable") return fail(`cannot read ${path}: ${read.why}`);
  const original = read.kind === "text" ? read.text : null;
  const outcome = editAgentRegistration(reg, original, command, removing ? "remove" : "add");
  if (!outcome.ok) {
    return fail(
      `${path}: ${outcome.error}. The file was left untouched; fix it by hand and run init again.`,
    );
  }
  const changed = outcome.text !== original;

  if (set.has("dryRun")) {
    console.log(
      changed
        ? unifiedDiff(
          original ?? "",
          outcome.text ?? "",
          original === null ? "/dev/null" : path,
          outcome.text === null ? "/dev/null" : path,
        ).trimEnd()
        : `${path}: nothing would change.`,
    );
    return 0;
  }
  try {
    if (changed && outcome.text === null) await Deno.remove(path);
    else if (changed) await writeAtomic(await writeTarget(path), outcome.text as string);
  } catch (err) {
    return fail(`cannot write ${path}: ${(err as Error).message}`);
  }
  if (removing) {
    console.log(
      changed
        ? `GateGuard removed from ${path}.`
        : `${path} does not register GateGuard; nothing to change.`,
    );
    return 0;
  }
  const tools = [...reg.shellTools, ...reg.editTools].join(", ");
  console.log(
    changed
      ? `GateGuard registered for ${reg.title} in ${path} (${tools}).\nCommand: ${
        agentCommand(command, agent)
      }`
      : `${path} already registers GateGuard for ${reg.title}; nothing to change.`,
  );
  if (changed && choice !== null && !choice.portable) {
    console.log(
      `Machine-specific: ${
        printable(choice.why)
      }; ${reg.title} has no local file beside ${path}, so leave it out of what you commit, ` +
        "or put gateguard on PATH and run init again for the bare name.",
    );
  }
  console.log(`Trust: ${reg.trust}`);
  return 0;
}
