/**
 * Reads the arguments of one shell search segment into evidence: flags and
 * their values through the tables of `tool_flags.ts` for the grep-like
 * tools and git, with find's expression (`find_args.ts`) and PowerShell
 * parameter binding (`cmdlet_args.ts`) read by their own modules.
 *
 * Input is a segment already split into words by the shared shell lexer;
 * nothing here tokenizes text. See docs/search-credit.md "Flag parsing",
 * "PowerShell parameter binding", "Search scope" and "Path patterns".
 *
 * @module
 */

import { addGlob, addType, splitTopLevel } from "./filters.ts";
import type {
  ArgsContext,
  PatternSyntax,
  SearchEvidence,
  ShellSegment,
  ShellWord,
} from "./types.ts";
import {
  COMMAND_SYNTAX,
  CONTENT_SYNTAX,
  DEFAULT_SKIPS,
  FAMILIES,
  type Family,
} from "./tool_flags.ts";
import { type FamilySpec, type FlagRole, VALUE_ROLES } from "../shell/programs/mod.ts";
import { limitDepth } from "./depth.ts";
import { namePatternInclude } from "./name_pattern.ts";
import { Collector, finish, rebase } from "./arg_collector.ts";
import { readFind } from "./find_args.ts";
import { readCmdlet } from "./cmdlet_args.ts";

/** The entries of a comma or bar list, each with its `!`/`^` negation read off. */
function listEntries(value: string, separator: string): { text: string; negated: boolean }[] {
  return splitTopLevel(value, separator).map((entry) => {
    const negated = entry.startsWith("!") || entry.startsWith("^");
    return { text: negated ? entry.slice(1) : entry, negated };
  });
}

function extensionGlob(ext: string): string {
  return `*.${ext.startsWith(".") ? ext.slice(1) : ext}`;
}

/** Applies one flag role with its value (null for switches). Returns false to stop reading. */
function applyRole(
  c: Collector,
  spec: FamilySpec,
  role: FlagRole,
  value: ShellWord | null,
  index: number,
  ctx: ArgsContext,
): boolean {
  const text = value?.text ?? "";
  const types = spec.types;
  switch (role) {
    case "pattern":
      c.stem(text);
      c.pattern(value);
      break;
    case "pattern-file":
      c.stem(text);
      c.patternsUnknown = true;
      break;
    case "invert":
      c.inverted = true;
      break;
    case "fixed-strings":
      c.chooseSyntax("fixed");
      break;
    case "extended-regexp":
      c.chooseSyntax("ere");
      break;
    case "basic-regexp":
      c.chooseSyntax("bre");
      break;
    case "glob":
    case "iglob":
      if (text.startsWith("!")) c.exclude(text.slice(1), role === "iglob");
      else c.include(text, role === "iglob");
      break;
    case "glob-list":
      for (const e of listEntries(text, ",")) e.negated ? c.exclude(e.text) : c.include(e.text);
      break;
    case "include":
      c.include(text);
      break;
    case "exclude":
      c.exclude(text);
      break;
    case "bar-include":
      for (const e of listEntries(text, "|")) c.include(e.text);
      break;
    case "bar-exclude":
      for (const e of listEntries(text, "|")) c.exclude(e.text);
      break;
    case "type":
    case "type-not":
      if (types) addType(c.filters, types, text, role === "type-not");
      else c.filters.unreadable = true;
      break;
    case "type-list":
      for (const e of listEntries(text, ",")) {
        if (types) addType(c.filters, types, e.text, e.negated);
        else c.filters.unreadable = true;
      }
      break;
    case "extension":
      addGlob(c.filters, extensionGlob(text), false, true, true);
      break;
    case "extension-list":
      for (const e of listEntries(text, ",")) {
        addGlob(c.filters, extensionGlob(e.text), e.negated, true, true);
      }
      break;
    case "unreadable":
    case "unreadable-switch":
      c.filters.unreadable = true;
      break;
    case "recursive":
      c.recursive = true;
      break;
    case "directories":
      if (text === "recurse") c.recursive = true;
      break;
    case "path":
      if (value) c.operands.push({ word: value, index, mayName: true, git: false });
      break;
    case "base":
      c.base = value ? rebase(value, c.base, ctx) : null;
      break;
    case "max-depth":
    case "min-depth":
    case "exact-depth":
    case "subdirectory-levels":
      limitDepth(c.depth, role, text);
      break;
    case "silent":
      c.silent = true;
      break;
    case "max-count":
      if (/^0+$/.test(text)) c.silent = true;
      break;
    case "entry-type":
      c.entryTypes.push(text);
      break;
    case "hidden":
      c.skipsHidden = false;
      break;
    case "no-ignore":
      c.skipsIgnored = false;
      break;
    case "all-files":
      c.skipsHidden = false;
      c.skipsIgnored = false;
      break;
    case "unrestricted":
      c.unrestricted++;
      c.skipsIgnored = false;
      if (c.unrestricted > 1) c.skipsHidden = false;
      break;
    case "exec":
      return false;
    case "switch":
    case "value":
    case "no-pattern":
      break;
  }
  return true;
}

/** Finds a long flag by exact name, or by unambiguous prefix where the tool allows it. */
function longRole(spec: FamilySpec, name: string): FlagRole {
  if (Object.hasOwn(spec.long, name)) return spec.long[name];
  if (!spec.longPrefixes) return "switch";
  const matches = Object.keys(spec.long).filter((k) => k.startsWith(name));
  if (matches.length === 0) return "switch";
  const roles = new Set(matches.map((k) => spec.long[k]));
  return roles.size === 1 ? [...roles][0] : "unreadable-switch";
}

/** Roles whose value is an exclusion, never a stem source. */
const EXCLUSION_ROLES: ReadonlySet<FlagRole> = new Set<FlagRole>([
  "exclude",
  "bar-exclude",
  "type-not",
]);

/** Roles whose value `applyRole` sorts into stem text and exclusions itself. */
const STEM_READ_ROLES: ReadonlySet<FlagRole> = new Set<FlagRole>([
  "pattern",
  "pattern-file",
  "glob",
  "iglob",
  "glob-list",
  "include",
  "bar-include",
  "extension-list",
  "type-list",
]);

/** A positional argument and whether it came after `--`. */
interface Positional {
  word: ShellWord;
  index: number;
  afterDashes: boolean;
}

/** Reads a flag-table family's arguments (`words` excludes the command name). */
function readFamily(
  family: Exclude<Family, "find" | "gci" | "sls">,
  words: ShellWord[],
  offset: number,
  ctx: ArgsContext,
  syntax: PatternSyntax | null,
): Collector {
  const spec = FAMILIES[family];
  const c = new Collector(spec.pathGlobs, spec.recursive, ctx.base, syntax);
  const skips = DEFAULT_SKIPS[family];
  c.skipsHidden = skips?.hidden ?? false;
  c.skipsIgnored = skips?.ignored ?? false;
  const positionals: Positional[] = [];
  let patternGiven = false;
  let noPattern = false;
  let dashes = false;
  const switches: string[] = [];
  const feed = (role: FlagRole, value: ShellWord | null, at: number, flag: string): boolean => {
    if (role === "pattern" || role === "pattern-file") patternGiven = true;
    if (role === "switch") switches.push(flag);
    if (role === "no-pattern") noPattern = true;
    if (!EXCLUSION_ROLES.has(role)) c.stem(flag);
    if (value && !EXCLUSION_ROLES.has(role) && !STEM_READ_ROLES.has(role)) c.stem(value.text);
    if (applyRole(c, spec, role, value, at, ctx)) return true;
    // The rest of the segment is a command the search runs on each file it finds.
    for (const rest of words.slice(at - offset + 1)) c.stem(rest.text);
    return false;
  };
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    const t = w.text;
    if (dashes || t === "-" || !t.startsWith("-")) {
      positionals.push({ word: w, index: offset + i, afterDashes: dashes });
      continue;
    }
    if (t === "--") {
      dashes = true;
      continue;
    }
    if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      const name = t.slice(2, eq < 0 ? undefined : eq);
      const role = longRole(spec, name);
      let value: ShellWord | null = null;
      if (VALUE_ROLES.has(role)) {
        if (eq >= 0) value = { ...w, text: t.slice(eq + 1) };
        else value = words[++i] ?? null;
      }
      if (!feed(role, value, offset + i, `--${name}`)) return c;
      continue;
    }
    for (let j = 1; j < t.length; j++) {
      const role = spec.short[t[j]] ?? "switch";
      if (!VALUE_ROLES.has(role)) {
        if (!feed(role, null, offset + i, `-${t[j]}`)) return c;
        continue;
      }
      const rest = t.slice(j + 1);
      const value = rest !== "" ? { ...w, text: rest } : words[++i] ?? null;
      if (!feed(role, value, offset + i, `-${t[j]}`)) return c;
      break;
    }
  }
  const git = family === "git-grep" || family === "git-ls-files";
  let patternTaken = !spec.patternFirst || patternGiven || noPattern;
  for (const p of positionals) {
    if (!patternTaken && !(family === "git-grep" && p.afterDashes)) {
      patternTaken = true;
      c.stem(p.word.text);
      c.pattern(p.word);
      const include = namePatternInclude(family, switches, p.word.text);
      if (include) c.include(include.glob, include.fold);
      continue;
    }
    addOperand(c, p.word, p.index, true, git);
  }
  return c;
}

/** Records a path argument; git exclusion pathspecs become exclusions instead. */
function addOperand(
  c: Collector,
  word: ShellWord,
  index: number,
  mayName: boolean,
  git: boolean,
): void {
  if (git) {
    const excluded = gitExclusion(word.text);
    if (excluded !== null) {
      c.exclude(excluded);
      return;
    }
  }
  c.stem(word.text);
  c.operands.push({ word, index, mayName, git });
}

/** The pattern of an exclusion pathspec (`:!x`, `:^x`, `:(exclude)x`), else null. */
function gitExclusion(text: string): string | null {
  if (text.startsWith(":!") || text.startsWith(":^")) return text.slice(2);
  if (!text.startsWith(":(")) return null;
  const close = text.indexOf(")");
  if (close < 0) return null;
  const magic = text.slice(2, close).split(",").map((m) => m.trim().toLowerCase());
  return magic.includes("exclude") ? text.slice(close + 1) : null;
}

/**
 * Reads the arguments of a search segment led by `family` into evidence.
 * `argsFrom` is the index of the first argument word (after the command
 * name, or after `git <subcommand>`); `base` may be overridden by `git -C`.
 */
export function segmentEvidence(
  family: Family,
  segment: ShellSegment,
  argsFrom: number,
  ctx: ArgsContext,
): SearchEvidence {
  const words = segment.words.slice(argsFrom);
  const syntax = Object.hasOwn(COMMAND_SYNTAX, segment.name)
    ? COMMAND_SYNTAX[segment.name]
    : CONTENT_SYNTAX[family] ?? null;
  let c: Collector;
  if (family === "find") c = readFind(words, argsFrom, ctx);
  else if (family === "gci" || family === "sls") {
    c = readCmdlet(family, words, argsFrom, ctx, syntax);
  } else c = readFamily(family, words, argsFrom, ctx, syntax);
  return finish(c, segment, ctx);
}

/** Resolves the single literal operand of a plain `cd`, or null when it cannot be known. */
export function plainDirectory(
  word: ShellWord | undefined,
  base: string | null,
  ctx: ArgsContext,
): string | null {
  if (!word || word.text === "-") return null;
  const text = ctx.dialect === "powershell" ? word.text.replaceAll("\\", "/") : word.text;
  return rebase({ ...word, text }, base, ctx);
}
