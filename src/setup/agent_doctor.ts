/**
 * `gateguard doctor`'s look at the other agents: every Codex, Gemini CLI,
 * Copilot CLI or Cursor hook file (project and user level) that registers
 * GateGuard is checked for what would keep it from gating: a handler that
 * does not name its agent (the payload would be read as Claude Code's),
 * a shell or edit tool its matcher does not reach, Cursor's `failClosed`
 * off. Each configured agent's trust step is listed once, since an
 * untrusted hook is skipped without a word. A file that does not parse
 * is reported; one that parses without a GateGuard hook is not.
 *
 * @module
 */

import type { JsonValue } from "../config/jsonc.ts";
import {
  AGENT_REGISTRATIONS,
  type AgentRegistration,
  SETUP_AGENTS,
  type SetupAgent,
} from "./agent_registrations.ts";
import { readSettingsFile } from "./settings_io.ts";
import { sourceConfigProblems } from "./health.ts";
import { isGateGuardHandler } from "./claude_settings.ts";
import type { FsPort } from "../platform/fs_port.ts";
import { isRecord } from "../platform/json.ts";

/** One line of doctor's report (the shape `cli/doctor.ts` prints). */
export interface AgentFinding {
  level: "ok" | "info" | "WARN" | "FAIL";
  text: string;
}

/** GateGuard's handlers in a parsed hook file, each with the matcher that reaches it (undefined: none). */
function ourHandlers(
  reg: AgentRegistration,
  file: JsonValue,
  ownCommand: string,
): { handler: Record<string, unknown>; matcher: unknown }[] {
  const layout = reg.layout;
  if (layout.kind === "owned") {
    return layout.format.handlers(file).filter((h) => layout.format.isOurs(h, ownCommand))
      .filter(isRecord).map((handler) => ({ handler, matcher: undefined }));
  }
  const hooks = isRecord(file) && isRecord(file.hooks) ? file.hooks : {};
  const list: unknown[] = Array.isArray(hooks[layout.format.event])
    ? hooks[layout.format.event] as unknown[]
    : [];
  if (layout.kind === "flat") {
    return list.filter(isRecord).filter((h) => layout.format.isOurs(h, ownCommand))
      .map((handler) => ({ handler, matcher: handler.matcher }));
  }
  return list.filter(isRecord).flatMap((entry) =>
    Array.isArray(entry.hooks)
      ? (entry.hooks as unknown[]).filter(isRecord)
        .filter((h) => isGateGuardHandler(h, ownCommand))
        .map((handler) => ({ handler, matcher: entry.matcher }))
      : []
  );
}

/** The command text of a handler, whatever key the agent uses for it. */
function commandOf(handler: Record<string, unknown>): string {
  for (const key of ["command", "bash", "powershell"]) {
    if (typeof handler[key] === "string") return handler[key] as string;
  }
  return "";
}

function covers(reg: AgentRegistration, matcher: unknown, tool: string): boolean {
  const layout = reg.layout;
  // A Copilot hook file has no matcher: every tool reaches its hooks.
  if (layout.kind === "owned") return true;
  return (reg.reaches ?? layout.format.covers)(matcher, tool);
}

/** The findings of one hook file that registers GateGuard. */
export function fileFindings(
  reg: AgentRegistration,
  path: string,
  file: JsonValue,
  ownCommand: string,
): AgentFinding[] {
  const ours = ourHandlers(reg, file, ownCommand);
  if (ours.length === 0) return [];
  const findings: AgentFinding[] = [];
  const flag = `--agent ${reg.agent}`;
  const named = ours.filter((o) => commandOf(o.handler).trimEnd().endsWith(flag));
  if (named.length < ours.length) {
    findings.push({
      level: "FAIL",
      text: `${reg.title}: ${path} runs GateGuard without '${flag}', so its payloads would be ` +
        `read as Claude Code's; run \`gateguard init --agent ${reg.agent}\`.`,
    });
  }
  const tools = [...reg.shellTools, ...reg.editTools];
  const missed = tools.filter((tool) => !named.some((o) => covers(reg, o.matcher, tool)));
  if (missed.length > 0) {
    findings.push({
      level: "FAIL",
      text: `${reg.title}: ${path} does not reach ${missed.join(", ")}; run ` +
        `\`gateguard init --agent ${reg.agent}\`.`,
    });
  }
  for (const problem of new Set(ours.flatMap((o) => sourceConfigProblems(commandOf(o.handler))))) {
    findings.push({ level: "FAIL", text: `${reg.title}: ${path}: ${problem}.` });
  }
  if (reg.agent === "cursor" && named.some((o) => o.handler.failClosed !== true)) {
    findings.push({
      level: "FAIL",
      text: `${reg.title}: ${path} lacks failClosed: true, so a failed hook lets the call through.`,
    });
  }
  if (findings.length === 0) {
    findings.push({
      level: "ok",
      text: `${reg.title}: ${path} registers GateGuard for ${tools.join(", ")}`,
    });
  }
  const unseen = (reg.foreignTools ?? []).filter((tool) =>
    !named.some((o) => covers(reg, o.matcher, tool))
  );
  if (unseen.length > 0) {
    findings.push({
      level: "WARN",
      text: `${reg.title}: ${path} does not reach MCP tools that may change files ` +
        `(${unseen.join(", ")}), so an MCP server could write GateGuard's own files unseen; ` +
        `run \`gateguard init --agent ${reg.agent}\` (it registers them, looked at for ` +
        "GateGuard's own files only).",
    });
  }
  return findings;
}

/**
 * The findings of every agent hook file under `projectRoot` and `home`
 * that registers GateGuard; empty when none does.
 */
export async function agentFindings(
  fs: FsPort,
  projectRoot: string,
  home: string | null,
  ownCommand: string,
): Promise<AgentFinding[]> {
  const findings: AgentFinding[] = [];
  for (const agent of SETUP_AGENTS) {
    const reg = AGENT_REGISTRATIONS[agent];
    const paths = new Set([reg.projectFile(projectRoot), ...(home ? [reg.userFile(home)] : [])]);
    const before = findings.length;
    for (const path of paths) {
      const read = await readSettingsFile(fs, path);
      if (read.kind === "absent") continue;
      if (read.kind !== "parsed") {
        findings.push({
          level: "FAIL",
          text: `${reg.title}: ${path} ${
            read.kind === "broken" ? `does not parse (${read.line}:${read.column})` : read.why
          }; the agent cannot use it.`,
        });
        continue;
      }
      findings.push(...fileFindings(reg, path, read.value, ownCommand));
    }
    if (findings.length > before) {
      findings.push({ level: "info", text: `${reg.title} trust: ${reg.trust}` });
    }
  }
  return findings;
}

/** One GateGuard command in another agent's hook file, for doctor's probe (`probe.ts`). */
export interface AgentCommand {
  agent: SetupAgent;
  title: string;
  /** The hook file that registers it. */
  path: string;
  command: string;
  /** Whether the agent blocks the call when the hook fails (Cursor's `failClosed`). */
  failsClosed: boolean;
}

/** Every distinct GateGuard command of the agents' hook files that names its agent. */
export async function agentCommands(
  fs: FsPort,
  projectRoot: string,
  home: string | null,
  ownCommand: string,
): Promise<AgentCommand[]> {
  const found: AgentCommand[] = [];
  for (const agent of SETUP_AGENTS) {
    const reg = AGENT_REGISTRATIONS[agent];
    const paths = new Set([reg.projectFile(projectRoot), ...(home ? [reg.userFile(home)] : [])]);
    for (const path of paths) {
      const read = await readSettingsFile(fs, path);
      if (read.kind !== "parsed") continue;
      const seen = new Set<string>();
      for (const { handler } of ourHandlers(reg, read.value, ownCommand)) {
        const command = commandOf(handler);
        if (!command.trimEnd().endsWith(`--agent ${agent}`) || seen.has(command)) continue;
        seen.add(command);
        found.push({
          agent,
          title: reg.title,
          path,
          command,
          failsClosed: agent === "cursor" && handler.failClosed === true,
        });
      }
    }
  }
  return found;
}
