/**
 * Words named like the keys every object inherits (`constructor`,
 * `__proto__`, `toString`, …) are words like any other: a table looked up
 * by a command, path, tool or package name must not find a function there.
 * Before, `constructor -rf x` made the hook fail on an internal error.
 */
import { assert } from "../helpers/assert.ts";
import { projectFs, Session } from "./session.ts";
import { ROOT } from "./context.ts";

/** Every key a plain object inherits, as spelled and lower-cased. */
const NAMES = [
  ...new Set(
    Object.getOwnPropertyNames(Object.prototype).flatMap((n) => [n, n.toLowerCase()]),
  ),
];

/** The shapes a name is tried in: as a program, an argument, a target, behind runners. */
const SHAPES = [
  (n: string) => n,
  (n: string) => `${n} -rf x`,
  (n: string) => `sudo ${n} x`,
  (n: string) => `ls | ${n}`,
  (n: string) => `git ${n} --hard`,
  (n: string) => `npx ${n} --settings x`,
  (n: string) => `docker ${n} rm -rf x`,
  (n: string) => `echo x > ${n}`,
  (n: string) => `${n}=1 ls`,
  (n: string) => `find . -name ${n} -delete`,
  (n: string) => `xargs ${n} < list`,
];

Deno.test("[fail-to-deny] commands, paths and tools named like inherited object keys are decided, never an internal error", async () => {
  const failures: string[] = [];
  const attempt = async (what: string, run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (e) {
      failures.push(`${what}: ${e instanceof Error ? e.message : e}`);
    }
  };
  for (const name of NAMES) {
    const session = new Session(projectFs({ "src/a.ts": "export const a = 1;\n" }));
    for (const shape of SHAPES) {
      const command = shape(name);
      await attempt(`Bash ${command}`, () => session.call("Bash", { command }));
      await attempt(`PowerShell ${command}`, () => session.call("PowerShell", { command }));
    }
    for (const path of [`${ROOT}/${name}`, `${ROOT}/.claude/${name}`, `${ROOT}/${name}/.env`]) {
      await attempt(
        `Write ${path}`,
        () => session.call("Write", { file_path: path, content: "x" }),
      );
    }
    await attempt(`tool ${name}`, () => session.call(name, { file_path: `${ROOT}/a` }));
  }
  assert(failures.length === 0, failures.slice(0, 10).join("\n"));
});
