/**
 * A hook session decided in process: each call goes through `decide()` on
 * the in-memory filesystem, and the state changes it asks for are applied
 * before the next call, as the hook saves them between processes.
 *
 * @module
 */

import { decide } from "../../src/hook/decide.ts";
import type { EnvSnapshot } from "../../src/config/env.ts";
import { applyDelta, emptyState, type SessionState } from "../../src/state/schema.ts";
import { contextFor, MemoryFs, ROOT } from "./context.ts";

/** What one call answered, as the agent reads it. */
export interface Answer {
  kind: "pass" | "note" | "deny" | "ask";
  text: string;
}

/** The in-memory project: `files` by project-relative path, plus empty `dirs`. */
export function projectFs(files: Record<string, string> = {}, dirs: string[] = []): MemoryFs {
  const fs = new MemoryFs({}, [ROOT]);
  for (const [rel, text] of Object.entries(files)) addFile(fs, rel, text);
  for (const rel of dirs) addDirs(fs, `${rel}/.`);
  return fs;
}

/** Writes the project file `rel`, with every directory above it. */
export function addFile(fs: MemoryFs, rel: string, text: string): void {
  addDirs(fs, rel);
  fs.write(`${ROOT}/${rel}`, text);
}

function addDirs(fs: MemoryFs, rel: string): void {
  const names = rel.split("/").slice(0, -1);
  for (let i = 1; i <= names.length; i++) fs.dirs.add(`${ROOT}/${names.slice(0, i).join("/")}`);
}

/** One session of the agent in the project of `fs`, under `env`. */
export class Session {
  state: SessionState = emptyState(0);

  constructor(readonly fs: MemoryFs = projectFs(), readonly env: EnvSnapshot = {}) {}

  /** Decides one call of `tool`; `payload` adds fields, `env` adds variables for this call. */
  async call(
    tool: string,
    input: unknown,
    payload: Record<string, unknown> = {},
    env: EnvSnapshot = {},
  ): Promise<Answer> {
    const now = 1_000;
    const decision = await decide(contextFor(tool, input, {
      env: { ...this.env, ...env },
      state: this.state,
      fs: this.fs,
      now,
      payload,
    }));
    this.state = applyDelta(this.state, decision.delta, now);
    const { outcome } = decision;
    if (outcome.kind === "ask") return { kind: "ask", text: outcome.text };
    return outcome.kind === "pass" ? { kind: "pass", text: "" } : outcome;
  }
}
