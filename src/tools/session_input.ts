/**
 * Whether text typed into a running shell session is whole commands.
 *
 * An agent that can type into a shell it started (Copilot CLI's
 * `write_bash` and `write_powershell`) can split one command over several
 * inputs: a line left open by a quote, a here-document, a trailing `|` or
 * a line continuation waits for the next input, and each part alone reads
 * as harmless. The gate reads one input at a time, so an input is read only
 * when it leaves nothing open; otherwise the call is denied as unreadable.
 * Loaded only for such inputs: it pulls in the shell parsers.
 *
 * @module
 */

import { parseBash } from "../shell/bash/mod.ts";
import { parsePowerShell } from "../shell/powershell/mod.ts";
import type { ShellDialect } from "./call.ts";

/** What is wrong with an input that leaves a construct open, in the denial's words. */
export const OPEN_INPUT_PROBLEM = "its text leaves a quote, bracket, here-document, pipe or " +
  "line continuation open, so the next input would finish the command; send each command " +
  "whole, ending with {enter}";

/** The characters that, ending a PowerShell line, make the shell wait for the next one. */
const PS_CONTINUES = new Set(["`", "|", ","]);

/** True when the last line of a Bash text ends in an unescaped backslash (a line continuation). */
function bashContinues(command: string): boolean {
  const body = command.endsWith("\n") ? command.slice(0, -1) : command;
  let slashes = 0;
  for (let i = body.length - 1; i >= 0 && body[i] === "\\"; i--) slashes++;
  return slashes % 2 === 1;
}

function powershellContinues(command: string): boolean {
  const last = command.trimEnd().at(-1);
  return last !== undefined && PS_CONTINUES.has(last);
}

/**
 * Why `command`, typed into a running `dialect` shell, is not whole
 * commands; null when it is. A text too long or too deep for the reader is
 * left to the shell gate, which refuses it under its own work budget.
 */
export function openInputProblem(dialect: ShellDialect, command: string): string | null {
  if (dialect === "powershell") {
    const parsed = parsePowerShell(command);
    const open = parsed.problem === "unbalanced" || powershellContinues(command);
    return open ? OPEN_INPUT_PROBLEM : null;
  }
  const parsed = parseBash(command);
  return parsed.problem === "unbalanced" || bashContinues(command) ? OPEN_INPUT_PROBLEM : null;
}
