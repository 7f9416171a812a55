/**
 * The `gateguard` command: with no arguments it runs the PreToolUse hook on
 * stdin; subcommands are loaded only when named, so the hook never pays for
 * the report, init or doctor code.
 *
 * @module
 */

import { readEnv } from "./config/env.ts";
import { VERSION, versionLine } from "./version.ts";

/** Signature every subcommand module exports. */
type SubcommandMain = (
  args: string[],
  env: ReturnType<typeof readEnv>,
) => Promise<number>;

/** The subcommands, each loaded on demand. */
const SUBCOMMANDS: Record<string, () => Promise<{ main: SubcommandMain }>> = {
  hook: () => (import(new URL("./cli/hook.ts", import.meta.url).href) as Promise<
    typeof import("./cli/hook.ts")
  >),
  report: () => (import(new URL("./cli/report.ts", import.meta.url).href) as Promise<
    typeof import("./cli/report.ts")
  >),
  init: () => (import(new URL("./cli/init.ts", import.meta.url).href) as Promise<
    typeof import("./cli/init.ts")
  >),
  doctor: () => (import(new URL("./cli/doctor.ts", import.meta.url).href) as Promise<
    typeof import("./cli/doctor.ts")
  >),
  explain: () => (import(new URL("./cli/explain.ts", import.meta.url).href) as Promise<
    typeof import("./cli/explain.ts")
  >),
  trust: () => (import(new URL("./cli/trust.ts", import.meta.url).href) as Promise<
    typeof import("./cli/trust.ts")
  >),
};

/** Usage text of the command. */
export const USAGE = `gateguard ${VERSION}: a fact-forcing PreToolUse gate for AI coding agents

Usage:
  gateguard                 run the hook (one JSON payload on stdin)
  gateguard hook            the same, explicitly
  gateguard report [...]    summarise the decision metrics (--help for options)
  gateguard init [...]      register GateGuard in Claude Code's settings
  gateguard doctor          check the installation and configuration
  gateguard explain [...]   show the decision a payload would get, step by step
  gateguard trust [path]    let a project file's loosening keys apply (--list, --revoke)
  gateguard --help | --version`;

/**
 * Runs the command line and returns the exit code. The permission set lets
 * GateGuard start `sh` only so that `doctor` can test-run the registered
 * commands; every other path, the hook above all, gives that up first.
 */
export async function run(args: string[]): Promise<number> {
  const [first, ...rest] = args;
  if (first !== "doctor") Deno.permissions.revokeSync({ name: "run" });
  if (first === undefined) return (await SUBCOMMANDS.hook()).main([], readEnv());
  if (first === "--help" || first === "-h" || first === "help") {
    console.log(USAGE);
    return 0;
  }
  if (first === "--version" || first === "-V") {
    const { BUILD_INFO } =
      await (import(new URL("./build_info.ts", import.meta.url).href) as Promise<
        typeof import("./build_info.ts")
      >);
    console.log(versionLine(BUILD_INFO, Deno.build.target));
    return 0;
  }
  const load = Object.hasOwn(SUBCOMMANDS, first) ? SUBCOMMANDS[first] : undefined;
  if (!load) {
    const what = first.startsWith("-") ? "option" : "command";
    console.error(`gateguard: unknown ${what} '${first.slice(0, 80)}'\n${USAGE}`);
    return 2;
  }
  return (await load()).main(rest, readEnv());
}

if (import.meta.main) {
  // Exit outright: a read-only open still stuck on a FIFO (see platform/fs_port.ts)
  // must not keep the process alive once the answer is printed.
  Deno.exit(await run(Deno.args));
}
