/**
 * The interpreters that read a program fed on stdin (`python3 -`,
 * `deno run -`), and the arguments that make them do so. The fail-closed
 * token scan of the destructive engine hands them the whole raw text as
 * that program; the interpreters pack reads such programs.
 *
 * @module
 */

/**
 * Interpreters that read a program fed on stdin (`python3 -`): the
 * fail-closed token scan hands them the whole raw text as that program.
 */
export const STDIN_PROGRAM_READERS: RegExp =
  /^(python[0-9.]*|pypy[0-9.]*|py|node|nodejs|bun|tsx|ts-node|ts-node-esm|perl|ruby|php|lua|rscript|r|deno)$/;

/** The arguments with which the interpreter `name` reads its program on stdin. */
export function stdinProgramArgs(name: string): string[] {
  return name === "deno" ? ["run", "-"] : ["-"];
}
