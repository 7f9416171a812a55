/**
 * The scenarios every agent's real client runs with GateGuard registered by
 * `gateguard init --agent <name>`: a first-touch edit denied and retried, a
 * destructive command denied and retried, a read-only first command passing.
 * Each agent's test file supplies how its model spells a shell call and an
 * edit, and how its client words a blocked tool.
 *
 * Every scenario asserts that the hook ran, through the metrics lines
 * GateGuard wrote: an agent that does not trust the hook skips it silently,
 * and the tool's effect would then be the only trace.
 *
 * @module
 */

import { assert, assertEquals } from "../../helpers/assert.ts";
import type { ClientInstall } from "../../../scripts/install_agents.ts";
import type { ModelReply, ModelToolCall } from "./fake_model.ts";
import {
  type AgentDriver,
  type AgentRun,
  type AgentScenario,
  cleanupAgentRun,
  describeAgentRun,
  metricsDecisions,
  registerByInit,
  runAgentScenario,
} from "./harness.ts";

/** How one agent's model and client spell the moves of the scenarios. */
export interface AgentMoves {
  driver: AgentDriver;
  /** A shell call running `command` in the project. */
  shell(command: string): ModelToolCall;
  /** An edit of the project file `rel` replacing `oldText` with `newText`. */
  edit(project: string, rel: string, oldText: string, newText: string): ModelToolCall;
  /** The words the client puts before a hook's reason in the tool result. */
  blocked: string;
  /** How a file-gate denial names the project file `rel`. */
  shownPath(project: string, rel: string): string;
}

/** A registered test: skipped (with the reason printed) only when the client is not installed. */
export type RealClientTest = (name: string, fn: () => Promise<void>) => void;

const WIDGET = "export function widget(): number {\n  return 1;\n}\n";
const EDITED = WIDGET.replace("return 1;", "return 2;");
const DONE: ModelReply = { text: "Done." };
const ENV = { GATEGUARD_METRICS: "1" };

/** The exact sentences GateGuard's denials carry. */
const TEXT = {
  destructive: "Destructive command detected. Before running it, present these facts:",
  quote: "Quote the user's current instruction verbatim",
} as const;

/** Runs a scenario registered by init, checks the run went as scripted, and hands it over. */
async function withRun(
  moves: AgentMoves,
  install: ClientInstall & { ok: true },
  scenario: Omit<AgentScenario, "register" | "env">,
  check: (run: AgentRun, decisions: string[]) => void,
): Promise<void> {
  const run = await runAgentScenario(moves.driver, install, {
    ...scenario,
    env: ENV,
    register: async (tree, driver) => {
      await registerByInit(tree, driver.agent);
      await driver.awaitLogBeforeHook?.(tree);
    },
  });
  const context = describeAgentRun(run);
  assertEquals(run.code, 0, context);
  assertEquals(run.model.failures(), [], context);
  check(run, await metricsDecisions(run.tree));
  // A failing run's tree (named in the failure message) stays until the test file is done,
  // or for good with GATEGUARD_TEST_KEEP_TMP=1.
  await cleanupAgentRun(run);
}

/** Registers the scenarios every agent shares. */
export function registerSharedScenarios(
  moves: AgentMoves,
  install: ClientInstall,
  test: RealClientTest,
): void {
  const agent = moves.driver.agent;
  const ready = (): ClientInstall & { ok: true } => {
    if (!install.ok) throw new Error("client missing");
    return install;
  };

  test(`[real-client:${agent}] a first-touch edit is denied with the questions, the model reads why, and the retry is applied`, () =>
    withRun(moves, ready(), {
      files: { "src/widget.ts": WIDGET },
      prompt: "make widget return 2",
      replies: (p) => {
        const edit = moves.edit(p, "src/widget.ts", "  return 1;", "  return 2;");
        return [
          { calls: [edit] },
          {
            outputs: [{
              includes: [
                moves.blocked,
                `Before editing ${moves.shownPath(p, "src/widget.ts")}, present these facts:`,
                TEXT.quote,
              ],
            }],
            paths: { [`${p}/src/widget.ts`]: { text: WIDGET } },
            calls: [edit],
          },
          {
            outputs: [{ excludes: [moves.blocked] }],
            paths: { [`${p}/src/widget.ts`]: { text: EDITED } },
            ...DONE,
          },
        ];
      },
    }, (_run, decisions) => {
      assertEquals(decisions, ["deny/first-touch", "pass-checked/checked"]);
    }));

  test(`[real-client:${agent}] [destructive-bash-gate] rm -r is denied, then runs on its retry`, () =>
    withRun(moves, ready(), {
      files: { "build/cache/a.o": "obj\n" },
      prompt: "clean the build folder",
      replies: (p) => [
        { calls: [moves.shell("rm -r build")] },
        {
          outputs: [{ includes: [moves.blocked, TEXT.destructive, TEXT.quote] }],
          paths: { [`${p}/build/cache/a.o`]: { text: "obj\n" } },
          calls: [moves.shell("rm -r build")],
        },
        { outputs: [{ excludes: [moves.blocked] }], paths: { [`${p}/build`]: "missing" }, ...DONE },
      ],
    }, (_run, decisions) => {
      assertEquals(decisions, ["destructive-deny/destructive", "pass/destructive-retry"]);
    }));

  test(`[real-client:${agent}] [destructive-bash-gate] a second rm -r in the same reply is no retry and is denied too; the next reply's retry runs`, () =>
    withRun(moves, ready(), {
      files: { "build/cache/a.o": "obj\n" },
      prompt: "clean the build folder",
      replies: (p) => [
        { calls: [moves.shell("rm -r build"), moves.shell("rm -r build")] },
        {
          outputs: [
            { includes: [moves.blocked, TEXT.destructive] },
            { includes: [moves.blocked, TEXT.destructive] },
          ],
          paths: { [`${p}/build/cache/a.o`]: { text: "obj\n" } },
          calls: [moves.shell("rm -r build")],
        },
        { outputs: [{ excludes: [moves.blocked] }], paths: { [`${p}/build`]: "missing" }, ...DONE },
      ],
    }, (_run, decisions) => {
      // Copilot CLI runs a reply's hooks one after another, so the second copy
      // is judged by the session log; Codex and Gemini CLI run them at once,
      // and each copy is a first denial. Either way no copy runs unread.
      assertEquals(decisions.length, 3, decisions.join(", "));
      assertEquals(decisions[0], "destructive-deny/destructive");
      assert(
        ["destructive-deny/destructive", "destructive-deny/unseen-denial"].includes(decisions[1]),
        decisions[1],
      );
      assertEquals(decisions[2], "pass/destructive-retry");
    }));

  test(`[real-client:${agent}] [read-only-first-shell-command] ls as the first command passes`, () =>
    withRun(moves, ready(), {
      files: { "notes.txt": "hello\n" },
      prompt: "what is in this folder?",
      replies: () => [
        { calls: [moves.shell("ls")] },
        { outputs: [{ includes: ["notes.txt"], excludes: [moves.blocked] }], ...DONE },
      ],
    }, (_run, decisions) => {
      assertEquals(decisions, ["routine-readonly/readonly"]);
    }));
}

/**
 * Registers the prior-search scenario: a grep earlier in the turn, read from
 * the agent's own session log, credits the first edit of the file it found.
 * `checkNote` gets the last request's body, for agents whose note reaches
 * the model; null for agents that pass silently.
 */
export function registerCreditScenario(
  moves: AgentMoves,
  install: ClientInstall,
  test: RealClientTest,
  checkNote: ((lastRequest: string) => void) | null,
): void {
  const agent = moves.driver.agent;
  test(`[real-client:${agent}] [prior-search-credit] a grep earlier in the turn, read from the session log, credits the edit`, () => {
    if (!install.ok) throw new Error("client missing");
    return withRun(moves, install, {
      files: { "src/widget.ts": WIDGET, "src/main.ts": 'import { widget } from "./widget.ts";\n' },
      prompt: "make widget return 2",
      replies: (p) => [
        { calls: [moves.shell("grep -rn widget src")] },
        {
          outputs: [{ includes: ["src/main.ts:1:"] }],
          calls: [moves.edit(p, "src/widget.ts", "  return 1;", "  return 2;")],
        },
        {
          outputs: [{ excludes: [moves.blocked] }],
          paths: { [`${p}/src/widget.ts`]: { text: EDITED } },
          ...DONE,
        },
      ],
    }, (run, decisions) => {
      assertEquals(decisions, ["routine-readonly/readonly", "credit/prior-search"]);
      const last = JSON.stringify(run.model.turns().at(-1)?.body);
      if (checkNote) checkNote(last);
      else assertEquals(last.includes("Prior-search credit"), false);
    });
  });
}
