/**
 * The shell languages the shell checks read. A command is judged by the
 * language it is written in, not by the tool that carries it, so the same
 * checks serve every agent's shell tool.
 *
 * @module
 */

/** The shell language a command is written in. */
export type ShellDialect = "bash" | "powershell";

/** The language a script is written in: a shell tool's dialect, or cmd.exe's batch language. */
export type Dialect = ShellDialect | "cmd";
