/**
 * Builds the context a hook call is decided in: settings, session key,
 * loaded state and the real ports. Shared by the hook and by `explain`, so
 * both decide on exactly the same inputs.
 *
 * @module
 */

import type { EnvSnapshot } from "../config/env.ts";
import type { Settings } from "../config/settings.ts";
import type { HookCall } from "../hook/call.ts";
import type { DecideContext } from "../hook/decision.ts";
import { WorkBudget } from "../platform/budget.ts";
import { denoFs } from "../platform/fs_port.ts";
import { resolveSessionKey, type SessionKey } from "../state/key.ts";
import { loadState } from "../state/store.ts";
import { programPaths, registrationCommand } from "../setup/command.ts";

/** A decide context plus the session key it was loaded under. */
export interface CallContext {
  ctx: DecideContext;
  key: SessionKey;
}

/** The project root of a call: `CLAUDE_PROJECT_DIR`, then the payload cwd, then the process dir. */
export function projectRootOf(call: HookCall, env: EnvSnapshot): string {
  return env.CLAUDE_PROJECT_DIR || call.cwd || Deno.cwd();
}

/**
 * Loads everything one call is decided on, under already resolved settings.
 * The call's work budget starts with `payloadChars` spent: reading and
 * parsing the payload is work of the call like any analysis, so what is
 * left reflects it.
 */
export async function callContext(
  call: HookCall,
  env: EnvSnapshot,
  settings: Settings,
  payloadChars: number,
): Promise<CallContext> {
  const now = Date.now();
  const processCwd = Deno.cwd();
  const windows = Deno.build.os === "windows";
  const key = await resolveSessionKey({
    sessionId: call.sessionId,
    envSessionIds: [env.CLAUDE_SESSION_ID, env.ECC_SESSION_ID, env.CLAUDE_CODE_SESSION_ID],
    transcriptPath: call.transcriptPath,
    projectRoot: projectRootOf(call, env),
  });
  const budget = new WorkBudget();
  budget.spend(payloadChars, "payload");
  return {
    key,
    ctx: {
      call,
      settings,
      state: loadState(settings.stateDir, key, now),
      ports: {
        fs: denoFs,
        now,
        processCwd,
        hostWindows: windows,
        os: Deno.build.os,
        ownCommand: registrationCommand(Deno.execPath(), import.meta.url, windows),
        program: programPaths(Deno.execPath(), import.meta.url, windows),
      },
      budget,
    },
  };
}
