/**
 * Runs a few lines against a module in a process of their own, for tests of
 * what a module does before anything has been loaded into it: the test
 * runner's process has usually loaded it already.
 *
 * @module
 */

/**
 * Imports the module at `moduleUrl` as `m` in a fresh `deno eval`, runs
 * `body` (which prints its answer), and returns what it printed, trimmed.
 */
export async function inFreshProcess(moduleUrl: URL, body: string): Promise<string> {
  const code = `const m = await import(${JSON.stringify(moduleUrl.href)});\n${body}`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-config", code],
    stdout: "piped",
    stderr: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).trim();
}
