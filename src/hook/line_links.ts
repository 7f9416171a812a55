/**
 * Symbolic links a Bash line makes before it writes through them:
 * `ln -s ~ h && sed -i … h/.claude/settings.json` edits the home's Claude
 * settings under a name that is no control path, and the link does not
 * exist yet when the hook looks it up on disk. Each later path that goes
 * through such a link is read a second time as the path it reaches
 * (`~/.claude/settings.json`), so the self-protection reader matches what
 * is really written.
 *
 * @module
 */

import type { Segment } from "../shell/bash/mod.ts";
import { lastSegment, parameterName, powershellWords, programName } from "./folder_paths.ts";

/** One link the line makes: its path and what it points to, both as written. */
export interface LineLink {
  link: string;
  target: string;
}

/** `ln`'s options that take the next word as their value. */
const LN_VALUES: ReadonlySet<string> = new Set(["-t", "--target-directory", "-S", "--suffix"]);

/** Whether `ln`'s options make symbolic links (`-s`, `-sfn`, `--symbolic`). */
function symbolic(args: readonly string[]): boolean {
  return args.some((a) => a === "--symbolic" || /^-[A-Za-z]*s[A-Za-z]*$/.test(a));
}

/** A path as written without a leading `./` or trailing separators. */
function tidy(path: string): string {
  const trimmed = path.replace(/^(?:\.\/)+/, "").replace(/\/+$/, "");
  return trimmed === "" ? "." : trimmed;
}

/** The folder a written path lies in, as written (`.` for a bare name). */
function folderOf(path: string): string {
  const cut = path.lastIndexOf("/");
  return cut < 0 ? "." : cut === 0 ? "/" : path.slice(0, cut);
}

/** Whether a path is written from a root, the home or a variable (not from the working folder). */
function placed(path: string): boolean {
  return /^(?:[/~$]|[A-Za-z]:[\\/])/.test(path);
}

/**
 * The symbolic links `segments` make with `ln -s` (in any option cluster),
 * as written: `ln -s T L` makes `L`, `ln -s T` and `ln -s T DIR` a link
 * named after `T` (the second read both ways, since whether `DIR` is a
 * folder is not known), `-t DIR` links in `DIR`.
 */
export function lineLinks(
  segments: readonly Segment[],
  commandAt: (segment: Segment) => number,
): LineLink[] {
  const out: LineLink[] = [];
  for (const segment of segments) {
    const words = segment.words.slice(commandAt(segment)).map((w) => w.text);
    if (programName(words[0] ?? "") !== "ln" || !symbolic(words.slice(1))) continue;
    const operands: string[] = [];
    let into: string | null = null;
    for (let i = 1; i < words.length; i++) {
      const word = words[i];
      if (word === "-t" || word === "--target-directory") into = words[++i] ?? null;
      else if (word.startsWith("--target-directory=")) into = word.slice(19);
      else if (LN_VALUES.has(word)) i++;
      else if (!word.startsWith("-")) operands.push(word);
    }
    // A link named after a target written as `~` or a variable gets a name the line does not show.
    const named = (target: string, folder: string) =>
      `${tidy(folder)}/${/^[~$]/.test(lastSegment(target)) ? "*" : lastSegment(target)}`;
    if (into !== null) {
      for (const target of operands) out.push({ link: named(target, into), target });
    } else if (operands.length === 1) {
      out.push({ link: named(operands[0], ".").slice(2), target: operands[0] });
    } else if (operands.length === 2) {
      out.push({ link: operands[1], target: operands[0] });
      out.push({ link: named(operands[0], operands[1]), target: operands[0] });
    } else {
      const folder = operands[operands.length - 1];
      for (const target of operands.slice(0, -1)) out.push({ link: named(target, folder), target });
    }
  }
  return out.filter((l) => l.link !== "" && l.target !== "");
}

/** The item types of `New-Item` that are links. */
const LINK_TYPES = /^(?:symboliclink|junction)$/i;

/**
 * The links a PowerShell command makes (`New-Item -ItemType SymbolicLink
 * -Path h -Target $HOME`, a `Junction` too), as written; `cmd /c mklink`'s
 * `/D` and `/J` links the same way.
 */
export function powershellLinks(command: string): LineLink[] {
  const out: LineLink[] = [];
  for (const statement of command.replace(/`(.)/g, "$1").split(/[;|&\n]+/)) {
    const words = powershellWords(statement);
    const at = words.findIndex((w) => w.toLowerCase() === "new-item" || w.toLowerCase() === "ni");
    if (at >= 0) {
      const values: Record<string, string> = {};
      const names = ["itemtype", "path", "name", "target", "value"];
      for (let i = at + 1; i < words.length; i++) {
        const name = parameterName(words[i], names);
        // `-Target:$HOME` holds its value; `-Target $HOME` takes the next word.
        const glued = words[i].includes(":") ? words[i].slice(words[i].indexOf(":") + 1) : null;
        if (name !== null) values[name] = glued ?? words[++i] ?? "";
        else if (!words[i].startsWith("-") && values.path === undefined) values.path = words[i];
      }
      const target = values.target ?? values.value;
      const link = values.name === undefined ? values.path : `${values.path ?? "."}/${values.name}`;
      if (LINK_TYPES.test(values.itemtype ?? "") && link && target) out.push({ link, target });
      continue;
    }
    const mklink = words.findIndex((w) => w.toLowerCase() === "mklink");
    const operands = mklink < 0 ? [] : words.slice(mklink + 1).filter((w) => !w.startsWith("/"));
    if (operands.length === 2) out.push({ link: operands[0], target: operands[1] });
  }
  return out.map((l) => ({ link: l.link.replaceAll("\\", "/"), target: l.target }));
}

/**
 * The paths `text` reaches through the line's links: for each link it goes
 * through (`h/x` for a link `h`), the same path from the link's target,
 * which a relative target reads from the link's own folder.
 */
export function throughLinks(text: string, links: readonly LineLink[]): string[] {
  if (links.length === 0) return [];
  const path = tidy(text.replaceAll("\\", "/")).split("/");
  const out: string[] = [];
  for (const { link, target } of links) {
    const name = tidy(link).split("/");
    // `*` stands for a link name the line does not show.
    if (path.length <= name.length || name.some((n, i) => n !== "*" && n !== path[i])) continue;
    const folder = folderOf(name.join("/"));
    const from = placed(target) ? target : `${folder}/${target}`;
    out.push(`${tidy(from)}/${path.slice(name.length).join("/")}`);
  }
  return out;
}
