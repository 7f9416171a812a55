/**
 * PowerShell's parameter binding and command names, as the checks that
 * read a parsed PowerShell command need them: a parameter word split at
 * its colon, bound to a known name by exact name, alias or unambiguous
 * prefix, and the command a command word names.
 *
 * @module
 */

import { DASHES, type PsWord } from "./words.ts";
import { baseName } from "../../platform/path.ts";

/**
 * Splits a parameter word into its name (without the dash) and the value
 * attached with a colon: `-Recurse:$false` is `{ name: "Recurse", value: "$false" }`,
 * `-Force` has value null, and `-Path:` has value "" (its value is then the
 * next word). Null for a word that is not a parameter.
 */
export function splitColonArg(word: string): { name: string; value: string | null } | null {
  if (typeof word !== "string" || word.length < 2 || !DASHES.has(word[0])) return null;
  if (!/[A-Za-z_?]/.test(word[1])) return null;
  const colon = word.indexOf(":");
  return colon < 0
    ? { name: word.slice(1), value: null }
    : { name: word.slice(1, colon), value: word.slice(colon + 1) };
}

/**
 * Binds a parameter name the way PowerShell does: case-insensitively, by
 * exact name or alias first, else by a prefix that only one known name
 * starts with. `name` may carry its dash and a `:value`. Returns the known
 * name it binds to (an alias binds to the name it maps to), or null when
 * it is unknown or ambiguous.
 */
export function bindParameter(
  name: string,
  known: readonly string[],
  aliases: Readonly<Record<string, string>> = {},
): string | null {
  if (typeof name !== "string") return null;
  const split = splitColonArg(name);
  const bare = (split === null ? name : split.name).toLowerCase();
  if (bare === "") return null;
  const exact = known.find((k) => k.toLowerCase() === bare);
  if (exact !== undefined) return exact;
  for (const [alias, target] of Object.entries(aliases)) {
    if (alias.toLowerCase() === bare) return target;
  }
  const matches = known.filter((k) => k.toLowerCase().startsWith(bare));
  return matches.length === 1 ? matches[0] : null;
}

/**
 * The command a PowerShell command word names, lowercased: the last path
 * or module component without a `.exe`/`.cmd`/`.bat`/`.com`/`.ps1`
 * extension, so `Microsoft.PowerShell.Management\Remove-Item` is
 * `remove-item` and `C:\bin\git.exe` is `git`.
 */
export function psCommandName(word: PsWord | undefined): string {
  if (word === undefined) return "";
  const text = word.text.toLowerCase();
  const base = baseName(text);
  for (const ext of [".exe", ".cmd", ".bat", ".com", ".ps1"]) {
    if (base.endsWith(ext) && base.length > ext.length) return base.slice(0, -ext.length);
  }
  return base;
}
