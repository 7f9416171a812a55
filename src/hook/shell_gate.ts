/**
 * The shell gates of Bash and PowerShell calls: the read-only git
 * allowlist, the destructive gate (every time, until the same command is
 * retried), and the routine gate (once per session, not used up by
 * read-only introspection).
 *
 * @module
 */

import type { DecideContext, Decision, GateEvent, Rule } from "./decision.ts";
import { DESTRUCTIVE_KEY_PREFIX, ROUTINE_KEY } from "./decision.ts";
import { emptyDelta } from "../state/schema.ts";
import type { Settings } from "../config/settings.ts";
import { sanitizeForDisplay, tooComplexText, withDomainText } from "../questions/messages.ts";
import {
  selfProtectionAskText,
  selfProtectionDenyText,
  type SelfProtectionInput,
  UNRESOLVED_CONTROLS,
  UNRESOLVED_LINE,
} from "../questions/protection_texts.ts";
import {
  allowDestructiveHint,
  destructiveAskText,
  destructiveDenialText,
  foreignWriteLine,
  LATER_EFFECT_TEXTS,
  OWN_HOOK_CONTROLS,
  OWN_HOOK_LINE,
  OWN_PROGRAM_TEXTS,
  protectedTargetText,
  ROUTINE_TEXT,
  SHELL_WRITE_LINE,
} from "../questions/shell_texts.ts";
import type { ShellProtectContext, ShellProtectHit } from "./shell_protect.ts";
import { sha256Hex } from "../platform/sha256.ts";
import { loadReadOnly, readOnlyKind } from "../shell/readonly/mod.ts";
import type { ShellCall, ShellDialect } from "../tools/call.ts";
import { shellToolName } from "../tools/gated.ts";
import type { DestructiveHit } from "../shell/destructive/mod.ts";
import type { WorkBudget } from "../platform/budget.ts";
import type { AllowPlace } from "./allow_destructive.ts";

/** Work units charged per character of a command before it is analysed. */
const READS_PER_CHARACTER = 8;

/**
 * The destructive engine and its packs, loaded only for a command the
 * read-only check does not vouch for (or one the operator's own pattern
 * must be tried on): most first commands of a session are `ls`, `git
 * status` or a search, and they need neither.
 */
async function loadEngine(): Promise<
  & typeof import("../shell/destructive/mod.ts")
  & typeof import("../shell/packs/mod.ts")
> {
  const [engine, packs] = await Promise.all([
    import(new URL("../shell/destructive/mod.ts", import.meta.url).href) as Promise<
      typeof import("../shell/destructive/mod.ts")
    >,
    import(new URL("../shell/packs/mod.ts", import.meta.url).href) as Promise<
      typeof import("../shell/packs/mod.ts")
    >,
  ]);
  return { ...engine, ...packs };
}

/** What a match of a project file phrase destroys, for the denial. */
const PROJECT_PHRASE_HIT: DestructiveHit = {
  pack: "project",
  rule: "destructiveCommands",
  destroys: "runs a command the project file lists as destructive",
};

/**
 * What a deletion by a file tool destroys (a Codex `*** Delete File`, a
 * Cursor `Delete`): that one file, whatever rule its stand-in command
 * would match.
 */
export function deletionHit(path: string): DestructiveHit {
  return { pack: "tool", rule: "delete-file", destroys: `deletes ${sanitizeForDisplay(path)}` };
}

/**
 * The rule that makes `command` destructive under `settings` (a project
 * file phrase, the operator's extra pattern, or a rule of the active
 * packs), or null; with the warnings the configuration gave on the way.
 * `gateguard explain` asks the same question.
 *
 * A command the read-only check vouches for (`readOnly`, the check's own
 * answer unless the caller already has it) writes nothing and runs no other
 * program, so no pack rule can find it destructive and the engine is not
 * asked; the phrases and the pattern the user configured still apply to it.
 * The destructive tests hold every destructive form to that: none is read-only.
 */
export async function destructiveRule(
  dialect: ShellDialect,
  command: string,
  settings: Settings,
  work: WorkBudget | null = null,
  readOnly: boolean = readOnlyKind(dialect, command) !== null,
): Promise<{ hit: DestructiveHit | null; warnings: string[] }> {
  const warnings: string[] = [];
  const projectPhrase = settings.destructiveCommands.length > 0 &&
    (await (import(new URL("../config/project_config.ts", import.meta.url).href) as Promise<
      typeof import("../config/project_config.ts")
    >)).matchesDestructiveCommand(
      command,
      settings.destructiveCommands,
      work ?? undefined,
    );
  if (projectPhrase) return { hit: PROJECT_PHRASE_HIT, warnings };
  const patterned = (settings.extraDestructive ?? "").trim() !== "";
  if (readOnly && !patterned) return { hit: null, warnings };
  const engine = await loadEngine();
  const extra = engine.compileExtraPatterns(settings.extraDestructive);
  if (extra.warning) warnings.push(extra.warning);
  if (readOnly) return { hit: engine.extraPatternHit(command, extra.patterns), warnings };
  const packs = engine.selectPacks(settings.destructivePacks);
  warnings.push(...packs.warnings.map((w) => `${w}.`));
  return {
    hit: await engine.findDestructive(
      dialect,
      command,
      extra.patterns,
      packs.active,
      engine.newDetectBudget(work),
    ),
    warnings,
  };
}

/** The shell gates' order of checks. */
export const SHELL_RULES = [
  { id: "input", title: "input not readable", reasons: ["malformed-input"] },
  { id: "readonly-git", title: "read-only git introspection", reasons: ["readonly-git"] },
  { id: "command-budget", title: "command too large to check", reasons: ["work-budget"] },
  {
    id: "self-protection",
    title:
      "change to GateGuard's own files or the environment it starts with, an agent started without it, or its hook run by hand",
    reasons: ["self-protection", "own-hook"],
  },
  {
    id: "protected-target",
    title: "destructive command aimed at home, a root, the project or its .git",
    reasons: ["protected-target"],
  },
  {
    id: "allowed-by-rule",
    title: "destructive command covered by an allowDestructive entry",
    reasons: ["allowed-by-rule"],
  },
  {
    id: "destructive",
    title: "destructive command",
    reasons: ["destructive", "destructive-retry", "unseen-denial"],
  },
  { id: "routine-disabled", title: "routine gate disabled", reasons: ["routine-disabled"] },
  { id: "routine-checked", title: "routine gate already passed", reasons: ["routine-checked"] },
  { id: "readonly", title: "read-only first command", reasons: ["readonly"] },
  { id: "routine", title: "routine gate", reasons: ["first-command"] },
] as const satisfies readonly Rule[];

/** Every reason code the shell gates decide with. */
export type ShellReason = (typeof SHELL_RULES)[number]["reasons"][number];

/** The shell side of self-protection and the control-surface context it reads, loaded on demand. */
async function loadShellProtect(): Promise<
  & typeof import("./shell_protect.ts")
  & typeof import("./surface_context.ts")
  & typeof import("./escalate.ts")
> {
  const [reader, context, escalate] = await Promise.all([
    import(new URL("./shell_protect.ts", import.meta.url).href) as Promise<
      typeof import("./shell_protect.ts")
    >,
    import(new URL("./surface_context.ts", import.meta.url).href) as Promise<
      typeof import("./surface_context.ts")
    >,
    import(new URL("./escalate.ts", import.meta.url).href) as Promise<
      typeof import("./escalate.ts")
    >,
  ]);
  return { ...reader, ...context, ...escalate };
}

/** What one self-protection hit says in the answer; `writeLine` says how a control file is reached. */
function protectionInput(hit: ShellProtectHit, writeLine: string): SelfProtectionInput {
  switch (hit.kind) {
    case "control":
      return {
        file: sanitizeForDisplay(hit.piece),
        controls: sanitizeForDisplay(hit.row.controls),
        turnsOff: [writeLine],
      };
    case "own-hook": {
      const sub = hit.subcommand;
      const own = sub === "trust" || sub === "init" ? OWN_PROGRAM_TEXTS[sub] : null;
      return own === null
        ? { file: "GateGuard's hook", controls: OWN_HOOK_CONTROLS, turnsOff: [OWN_HOOK_LINE] }
        : { file: own.file, controls: own.controls, turnsOff: [own.line] };
    }
    case "unresolved":
      return {
        file: sanitizeForDisplay(hit.piece),
        controls: UNRESOLVED_CONTROLS,
        turnsOff: [UNRESOLVED_LINE],
      };
    default: {
      const { controls, line } = LATER_EFFECT_TEXTS[hit.kind];
      return { file: sanitizeForDisplay(hit.piece), controls, turnsOff: [line] };
    }
  }
}

/**
 * The self-protection answer to a command that reaches GateGuard's control
 * surface or runs its hook: asked of the user where a person answers and
 * every file it reaches is one Claude Code asks about with the hook's
 * reason, denied every time otherwise. Never a key, so never a retry.
 */
function protectionOutcome(
  asks: boolean,
  hits: readonly ShellProtectHit[],
  writeLine = SHELL_WRITE_LINE,
): { outcome: Decision["outcome"]; decision: string } {
  const inputs = hits.map((hit) => protectionInput(hit, writeLine));
  const denyText = selfProtectionDenyText(inputs);
  // Where a link leads is not known, so no person could judge it either.
  const askable = hits.every((h) =>
    h.kind !== "unresolved" && (h.kind !== "control" || h.row.askable)
  );
  return askable && asks
    ? {
      outcome: { kind: "ask", text: selfProtectionAskText(inputs), denyText },
      decision: "self-protect-ask",
    }
    : { outcome: { kind: "deny", text: denyText }, decision: "self-protect-deny" };
}

/**
 * Decides a call of a tool GateGuard does not read whose name says it may
 * change files (an MCP server's `write_file`, `move_file`, …;
 * `tools/gated.ts`): the paths its input names are matched against the
 * control surface as a shell command's pieces are. One that reaches it is
 * never passed on a retry, since what the tool would leave there cannot be
 * read; every other call of such a tool passes.
 */
export async function decideForeignCall(ctx: DecideContext): Promise<Decision> {
  const { call } = ctx;
  const answer = (outcome: Decision["outcome"]): Decision => ({
    outcome,
    delta: emptyDelta(),
    events: [],
    warnings: [],
  });
  const [protect, { foreignPaths }] = await Promise.all([
    loadShellProtect(),
    import(new URL("../tools/foreign_input.ts", import.meta.url).href) as Promise<
      typeof import("../tools/foreign_input.ts")
    >,
  ]);
  const paths = foreignPaths(call.toolInput ?? {}, ctx.budget);
  const surface = { surface: protect.surfaceContextOf(ctx), cwd: call.cwd };
  const hits = paths && protect.pathHits(paths, surface, ctx.budget);
  if (hits === null) return answer({ kind: "deny", text: tooComplexText("edit") });
  if (hits.length === 0) return answer({ kind: "pass" });
  const line = foreignWriteLine(sanitizeForDisplay(call.toolName, 120));
  return answer(
    protectionOutcome(protect.askReachesPerson(call.permissionMode), hits, line).outcome,
  );
}

function ruleOf(reason: ShellReason): string {
  return SHELL_RULES.find((r) => (r.reasons as readonly string[]).includes(reason))?.id ?? reason;
}

/**
 * True when the `allowDestructive` entries (user file, trusted project
 * file) cover this destructive command (`allow_destructive.ts`, loaded only
 * when there are entries). A deletion by a file tool is never covered.
 */
async function allowedByList(ctx: DecideContext, shell: ShellCall): Promise<boolean> {
  const { settings } = ctx;
  if (settings.allowDestructive.length === 0 || shell.deletion !== undefined) return false;
  const { allow, place } = await allowModule(ctx);
  const destructive = async (piece: string): Promise<boolean> =>
    (await destructiveRule(shell.dialect, piece, settings, ctx.budget)).hit !== null;
  return await allow.coveredByAllowList(
    shell.dialect,
    shell.command,
    settings.allowDestructive,
    place,
    destructive,
    ctx.budget,
  );
}

/** Programs whose denial may suggest an `allowDestructive` glob: plain deleters of paths. */
const DELETERS: ReadonlySet<string> = new Set(["rm", "rmdir", "unlink"]);

/** A plain relative path: names of letters, digits, `.`, `_`, `-`; not starting with `.`. */
const PLAIN_PATH = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}(?:\/[A-Za-z0-9._-]{1,64})*\/?$/;

/**
 * The `allowDestructive` glob a denial of this command suggests, or null:
 * for a plain deleter (`rm -rf build`) the first folder of its first
 * operand, when that is a plain name inside the working folder. Read from
 * the words alone, so the denial loads nothing more; whether an entry then
 * covers a command is decided by `allow_destructive.ts`.
 */
function hatchFor(shell: ShellCall): string | null {
  if (shell.deletion !== undefined || shell.dialect !== "bash") return null;
  const words = shell.command.trim().split(/\s+/);
  if (!DELETERS.has(words[0] ?? "")) return null;
  const operand = words.slice(1).find((w) => !w.startsWith("-"));
  if (operand === undefined || !PLAIN_PATH.test(operand)) return null;
  if (operand.split("/").some((s) => s === ".." || s === ".")) return null;
  return `${operand.split("/")[0]}/**`;
}

/** The allow-list module and where this call's command runs. */
async function allowModule(ctx: DecideContext): Promise<{
  allow: typeof import("./allow_destructive.ts");
  place: AllowPlace;
}> {
  const { settings, call, ports } = ctx;
  const [allow, { projectRoot }] = await Promise.all([
    import(new URL("./allow_destructive.ts", import.meta.url).href) as Promise<
      typeof import("./allow_destructive.ts")
    >,
    import(new URL("../file_facts/resolve.ts", import.meta.url).href) as Promise<
      typeof import("../file_facts/resolve.ts")
    >,
  ]);
  const root = projectRoot(call.cwd, settings.projectDirEnv, ports.processCwd);
  return {
    allow,
    place: {
      cwd: call.cwd ?? root,
      projectRoot: root,
      home: settings.homeDir,
      surface: {
        env: settings.env,
        projectRoot: root,
        processCwd: ports.processCwd,
        program: null,
        fs: ports.fs,
      },
      fs: ports.fs,
    },
  };
}

/** Decides a Bash or PowerShell call. */
export async function decideShellGate(ctx: DecideContext, shell: ShellCall): Promise<Decision> {
  const { call, settings, state } = ctx;
  const tool = shellToolName(shell.dialect);
  const { command } = shell;
  const delta = emptyDelta();
  const warnings: string[] = [];
  const events: GateEvent[] = [];
  const rules: string[] = [];
  // The pack rule a destructive decision came from, recorded as the line's rule id.
  let packRule: string | null = null;
  const done = (
    outcome: Decision["outcome"],
    decision: string,
    reason: ShellReason,
  ): Decision => {
    if (settings.metrics) {
      rules.push(ruleOf(reason));
      events.push({
        // The tool the call came as: a deletion by a file tool is reported as that tool.
        tool: call.toolName || tool,
        class: null,
        decision,
        reason,
        questions: null,
        sensitive: false,
        profile: null,
        rule: packRule,
      });
    }
    return { outcome, delta, events, warnings, rules };
  };

  await loadReadOnly(shell.dialect, command);
  const readOnly = readOnlyKind(shell.dialect, command);
  if (readOnly === "readonly-git") return done({ kind: "pass" }, "pass", "readonly-git");

  // Every character may be read several times (lexers, wrappers, the
  // fail-closed scan); a command too long for that is refused up front.
  if (!ctx.budget.spend(command.length * READS_PER_CHARACTER, "command")) {
    return done(
      { kind: "deny", text: tooComplexText("command") },
      "destructive-deny",
      "work-budget",
    );
  }
  // A command the read-only check accepts writes nothing and runs nothing it
  // prints, so only the others need the control surface (and its modules).
  if (readOnly === null && shell.deletion === undefined) {
    // The engine is read next unless the control surface answers first:
    // loading both at once saves the hook process a module round. A failed
    // early load is only a head start lost; destructiveRule loads again.
    loadEngine().catch(() => {});
  }
  const protect = readOnly === null ? await loadShellProtect() : null;
  let protectCtx: ShellProtectContext | null = null;
  if (protect) {
    const place = { surface: protect.surfaceContextOf(ctx), cwd: call.cwd };
    // Both load what only some commands need; neither waits for the other.
    const [, archives] = await Promise.all([
      protect.loadFolderWrites(shell.dialect, command),
      protect.prefetchArchives(command, place, ctx.budget),
    ]);
    protectCtx = { ...place, ...(archives ? { archives } : {}) };
  }
  const protectHits = protect && protectCtx
    ? protect.shellProtectHits(shell.dialect, command, protectCtx, ctx.budget)
    : [];
  if (protectHits === null) {
    return done(
      { kind: "deny", text: tooComplexText("command") },
      "destructive-deny",
      "work-budget",
    );
  }
  const destructiveFound = () =>
    shell.deletion === undefined
      ? destructiveRule(shell.dialect, command, settings, ctx.budget, readOnly !== null)
      : Promise.resolve({ hit: deletionHit(shell.deletion), warnings: [] as string[] });
  let found: Awaited<ReturnType<typeof destructiveFound>> | undefined;
  // Home, a root, the project or its .git, once asked (a destructive command only).
  let aimed: ReturnType<typeof import("./shell_protect.ts")["protectedTargetOf"]> | undefined;
  if (protectHits.length > 0) {
    // A deletion of every name below a folder (`find . -exec rm`, `git clean`) is
    // the destructive gate's when that gate flags the command and the folder is
    // one it never passes on a retry, as `rm -rf .` is; any other stays here.
    const broad = protectHits.every((h) => h.kind === "control" && h.broad === true);
    if (broad) found = await destructiveFound();
    if (broad && found?.hit !== null) {
      aimed = protect!.protectedTargetOf(shell.dialect, command, protectCtx!);
    }
    if (!aimed) {
      const { outcome, decision } = protectionOutcome(
        protect!.askReachesPerson(call.permissionMode),
        protectHits,
      );
      const reason = protectHits.some((h) => h.kind !== "own-hook")
        ? "self-protection"
        : "own-hook";
      return done(outcome, decision, reason);
    }
  }
  found ??= await destructiveFound();
  if (ctx.budget.exhausted() !== null) {
    return done(
      { kind: "deny", text: tooComplexText("command") },
      "destructive-deny",
      "work-budget",
    );
  }
  warnings.push(...found.warnings);
  const hit = found.hit;
  if (hit !== null) {
    packRule = `${hit.pack}/${hit.rule}`;
    // Home, a root, the project or its .git: the user's call, never a retry's.
    aimed ??= protect && protectCtx
      ? protect.protectedTargetOf(shell.dialect, command, protectCtx)
      : null;
    if (aimed !== null) {
      const asked = protect!.askReachesPerson(call.permissionMode);
      const piece = sanitizeForDisplay(aimed.piece);
      const denyText = protectedTargetText(aimed.target, piece, false, hit);
      return done(
        asked
          ? { kind: "ask", text: protectedTargetText(aimed.target, piece, true, hit), denyText }
          : { kind: "deny", text: denyText },
        asked ? "destructive-ask" : "destructive-deny",
        "protected-target",
      );
    }
    if (await allowedByList(ctx, shell)) {
      return done({ kind: "pass" }, "allowed-by-rule", "allowed-by-rule");
    }
    const hatch = hatchFor(shell);
    const denial = destructiveDenialText(hit.pack, hit.rule, hit.destroys) +
      (hatch === null ? "" : `\n${allowDestructiveHint(hit.pack, hit.rule, hatch)}`);
    // The user chose to be asked instead of deny-then-retry (Claude Code only:
    // where no person answers, the ordinary denial and its retry stay).
    if (
      settings.destructiveDecision === "ask" && protect !== null &&
      protect.askReachesPerson(call.permissionMode)
    ) {
      return done(
        {
          kind: "ask",
          text: destructiveAskText(hit.pack, hit.rule, hit.destroys),
          denyText: denial,
        },
        "destructive-ask",
        "destructive",
      );
    }
    const key = DESTRUCTIVE_KEY_PREFIX + await sha256Hex(`${tool}\u0000${command}`);
    if (state.checked.has(key)) {
      // A second copy sent before the denial could be read is no retry: it
      // is denied again and the retry stays available (session_logs/denial_seen.ts;
      // another agent's session log through its reader, session_logs/session_logs.ts).
      if (call.transcriptPath !== null && (call.toolUseId !== null || call.logKind)) {
        const { denialCouldBeSeen } =
          await (import(new URL("../session_logs/denial_seen.ts", import.meta.url).href) as Promise<
            typeof import("../session_logs/denial_seen.ts")
          >);
        const log = call.logKind
          ? await (await (import(
            new URL("../session_logs/session_logs.ts", import.meta.url).href
          ) as Promise<typeof import("../session_logs/session_logs.ts")>)).turnReader(call.logKind)
          : undefined;
        const retry = { transcriptPath: call.transcriptPath, toolUseId: call.toolUseId };
        const seen = await denialCouldBeSeen(
          { ...retry, tool, command },
          ctx.ports.fs,
          ctx.budget,
          log?.denialSeen,
          log?.PENDING_RESCAN,
        );
        if (!seen) {
          return done(
            { kind: "deny", text: withDomainText(denial, settings.domainText) },
            "destructive-deny",
            "unseen-denial",
          );
        }
      }
      // The retry passes once; the next run of the same command is gated again.
      delta.uncheck.push(key);
      return done({ kind: "pass" }, "pass", "destructive-retry");
    }
    delta.check.push(key);
    return done(
      {
        kind: "deny",
        text: withDomainText(denial, settings.domainText),
      },
      "destructive-deny",
      "destructive",
    );
  }

  if (settings.routineDisabled) return done({ kind: "pass" }, "pass", "routine-disabled");
  if (state.checked.has(ROUTINE_KEY)) return done({ kind: "pass" }, "pass", "routine-checked");
  if (readOnly === "readonly") {
    delta.inc.routine_readonly_passes = 1;
    return done({ kind: "pass" }, "routine-readonly", "readonly");
  }
  delta.check.push(ROUTINE_KEY);
  return done(
    { kind: "deny", text: withDomainText(ROUTINE_TEXT, settings.domainText) },
    "routine-deny",
    "first-command",
  );
}
