/**
 * A hook wrapper for the Copilot real-client tests: it holds the payload
 * until Copilot CLI has written the pending call's reply to the session
 * log, then hands it to the wrapped hook command and answers with its
 * output and exit code. Copilot writes its log asynchronously, and on a
 * loaded machine later than GateGuard waits for it; with this wrapper the
 * tests check what GateGuard decides on the log, never how fast the client
 * wrote it. (The lag itself is tested in process: tests/agents/copilot_log_test.ts.)
 *
 * Usage (as the hook command): `deno run --allow-all log_settled.ts '<hook command>'`.
 *
 * @module
 */

import { copilotCallKey, copilotLogPath } from "../../../src/session_logs/copilot_session.ts";
import { toolArgsOf } from "../../../src/agents/copilot.ts";
import { scanTurn } from "../../../src/session_logs/copilot_log.ts";
import { denoFs } from "../../../src/platform/fs_port.ts";
import { isRecord } from "../../../src/platform/json.ts";
import { agentTool, SCANNED_TOOL_NAMES } from "../../../src/tools/gated.ts";

/** How long to wait for the record; past it the hook runs anyway and GateGuard copes on its own. */
const BOUND_MS = 20_000;

/** True once the log holds the pending call's request, not yet completed. */
function pendingLogged(payload: unknown): boolean {
  if (!isRecord(payload)) return true;
  const tool = agentTool("copilot", payload.toolName);
  // A tool GateGuard does not gate reads no log.
  if (tool === null) return true;
  const sessionId = typeof payload.sessionId === "string" ? payload.sessionId : null;
  const path = copilotLogPath(sessionId, Deno.env.toObject());
  if (path === null) return true;
  const scan = scanTurn({
    transcriptPath: path,
    promptId: null,
    toolUseId: copilotCallKey(tool.name, toolArgsOf(payload.toolArgs)),
    tools: SCANNED_TOOL_NAMES,
  }, denoFs);
  return scan?.pendingFound === true;
}

if (import.meta.main) {
  const [command] = Deno.args;
  const text = await new Response(Deno.stdin.readable).text();
  let payload: unknown = null;
  try {
    payload = JSON.parse(text);
  } catch {
    // Not JSON: nothing to wait for; the hook answers it as it will.
  }
  const until = Date.now() + BOUND_MS;
  while (!pendingLogged(payload) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const child = new Deno.Command("sh", {
    args: ["-c", command],
    stdin: "piped",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(text));
  await writer.close();
  Deno.exit((await child.status).code);
}
