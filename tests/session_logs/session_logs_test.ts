/**
 * Tests of the choice of session-log reader by `log_kind`: each known kind
 * gets its agent's own reader, and any other kind (Claude Code's, none, a
 * name that only an object's prototype holds) reads nothing.
 */

import { assertEquals } from "../helpers/assert.ts";
import { turnReader } from "../../src/session_logs/session_logs.ts";
import { denoFs } from "../../src/platform/fs_port.ts";
import * as codex from "../../src/session_logs/codex_log.ts";
import * as gemini from "../../src/session_logs/gemini_log.ts";
import * as copilot from "../../src/session_logs/copilot_log.ts";

Deno.test("[prior-search-credit] session logs: each agent's log kind is read by that agent's own reader", async () => {
  for (
    const [kind, module] of [["codex", codex], ["gemini", gemini], ["copilot", copilot]] as const
  ) {
    const reader = await turnReader(kind);
    assertEquals(reader.scanTurn === module.scanTurn, true, kind);
    assertEquals(reader.denialSeen === module.denialSeen, true, kind);
  }
});

Deno.test("[prior-search-credit] session logs: an unknown log kind gives no credit and a retry that cannot be judged", async () => {
  const path = await Deno.makeTempFile();
  try {
    for (const kind of [null, "claude", "nosuch", "toString", "__proto__", "constructor"]) {
      const reader = await turnReader(kind);
      const scan = reader.scanTurn(
        { transcriptPath: path, promptId: null, toolUseId: "t1", tools: new Set(["Bash"]) },
        denoFs,
      );
      assertEquals(scan, null, String(kind));
      assertEquals(
        reader.denialSeen({
          transcriptPath: path,
          toolUseId: "t1",
          tool: "Bash",
          command: "rm -r x",
        }, denoFs),
        "unknown",
        String(kind),
      );
      assertEquals(reader.PENDING_RESCAN, { retries: 0, delayMs: 0 }, String(kind));
    }
  } finally {
    await Deno.remove(path);
  }
});
