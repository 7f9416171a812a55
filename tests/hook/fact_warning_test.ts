/**
 * A fact that throws while a file call is decided: the call is still
 * decided without it (no credit it cannot show), and the fault becomes a
 * warning line on stderr instead of passing for a plain denial.
 */

import { assertEquals } from "../helpers/assert.ts";
import { contextFor, MemoryFs, ROOT } from "./context.ts";
import { decide } from "../../src/hook/decide.ts";

/** An in-memory filesystem whose whole-file reads of the edited file fail as a broken disk would. */
class FailingReads extends MemoryFs {
  override readTextBounded(path: string, maxBytes: number): string | null {
    if (path === `${ROOT}/src/app.py`) throw new RangeError("disk went away");
    return super.readTextBounded(path, maxBytes);
  }
}

Deno.test("[fail-to-deny] a change profile that throws is a stderr warning, and the first touch is still denied", async () => {
  const fs = new FailingReads({ [`${ROOT}/src/app.py`]: "x = 1\n" }, [ROOT, `${ROOT}/src`]);
  const ctx = contextFor("Edit", {
    file_path: `${ROOT}/src/app.py`,
    old_string: "x = 1",
    new_string: "x = 2",
  }, { fs });
  const decision = await decide(ctx);
  assertEquals(decision.outcome.kind, "deny");
  assertEquals(decision.warnings, [
    "the change profile could not be computed (RangeError); the call is decided without it",
  ]);
});

Deno.test("[fail-to-deny] a first touch whose facts all compute has no warning", async () => {
  const fs = new MemoryFs({ [`${ROOT}/src/app.py`]: "x = 1\n" }, [ROOT, `${ROOT}/src`]);
  const ctx = contextFor("Edit", {
    file_path: `${ROOT}/src/app.py`,
    old_string: "x = 1",
    new_string: "x = 2",
  }, { fs });
  const decision = await decide(ctx);
  assertEquals(decision.outcome.kind, "deny");
  assertEquals(decision.warnings, []);
});
