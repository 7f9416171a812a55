/**
 * Builds the context `decide()` runs in, for in-process tests: a payload,
 * settings from an env snapshot, a state and the in-memory filesystem.
 *
 * @module
 */

import { callFromObject } from "../../src/hook/call.ts";
import type { DecideContext } from "../../src/hook/decision.ts";
import { settingsFrom } from "../../src/config/settings.ts";
import { emptyState, type SessionState } from "../../src/state/schema.ts";
import type { EnvSnapshot } from "../../src/config/env.ts";
import { MemoryFs, ROOT } from "../session_logs/builder.ts";
import { WorkBudget } from "../../src/platform/budget.ts";
import type { FsPort } from "../../src/platform/fs_port.ts";

export { MemoryFs, ROOT };

/** The pieces of a context a test may choose; the rest are defaults. */
export interface ContextOptions {
  env?: EnvSnapshot;
  state?: SessionState;
  /** The filesystem; the in-memory one by default, the real one for a real project. */
  fs?: FsPort;
  /** The project root, cwd of the call and of the process; `ROOT` by default. */
  root?: string;
  now?: number;
  /** Extra payload fields (`transcript_path`, `agent_id`, ...). */
  payload?: Record<string, unknown>;
}

/** A context for one call of `tool` with `input`, run from the project root. */
export function contextFor(
  tool: string,
  input: unknown,
  opts: ContextOptions = {},
): DecideContext {
  const root = opts.root ?? ROOT;
  return {
    call: callFromObject({
      session_id: "s1",
      cwd: root,
      hook_event_name: "PreToolUse",
      tool_name: tool,
      tool_input: input,
      ...opts.payload,
    }),
    settings: settingsFrom({ CLAUDE_PROJECT_DIR: root, HOME: "/home/u", ...opts.env }),
    state: opts.state ?? emptyState(0),
    ports: {
      fs: opts.fs ?? new MemoryFs({}, [ROOT, `${ROOT}/src`]),
      now: opts.now ?? 1_000,
      processCwd: root,
      hostWindows: false,
    },
    budget: new WorkBudget(),
  };
}
