/**
 * Reads the arguments of one shell search segment into evidence: flags and
 * their values through the tables of `tool_flags.ts`, find's expression,
 * PowerShell parameter binding, and path operands.
 *
 * Input is a segment already split into words by the shared shell lexer;
 * nothing here tokenizes text. See docs/search-credit.md "Flag parsing",
 * "PowerShell parameter binding", "Search scope" and "Path patterns".
 *
 * @module
 */

import { bindParameter, splitColonArg } from "../shell/powershell.ts";
import { absolutePath, formatPath, parsePath } from "../file_facts/paths.ts";
import {
  addGlob,
  addType,
  hasGlobChars,
  newFilters,
  type SearchFilters,
  splitTopLevel,
} from "./filters.ts";
import type {
  ArgsContext,
  DepthLimit,
  NamedDir,
  Operand,
  SearchEvidence,
  ShellSegment,
  ShellWord,
} from "./types.ts";
import {
  FAMILIES,
  type Family,
  POWERSHELL_CMDLETS,
  type PsParam,
  type PsRole,
} from "./tool_flags.ts";
import { type FamilySpec, type FlagRole, VALUE_ROLES } from "../shell/tools/roles.ts";
import { FIND_LEADING_OPTIONS, FIND_PRIMARIES } from "../shell/tools/find.ts";
import { limitDepth } from "./depth.ts";
import { namePatternInclude } from "./name_pattern.ts";

/** A path argument before resolution. */
interface RawOperand {
  word: ShellWord;
  /** Position in the segment, for the redirection rule. */
  index: number;
  /** May name a directory for new-file credit. */
  mayName: boolean;
  /** A git pathspec: `*` also matches `/`, and magic prefixes apply. */
  git: boolean;
  /** Never a wildcard (PowerShell `-LiteralPath`). */
  literal?: boolean;
}

/** The evidence of one segment being built. */
class Collector {
  readonly filters: SearchFilters;
  readonly stemWords: string[] = [];
  readonly operands: RawOperand[] = [];
  recursive: boolean;
  stdin = false;
  /** Set by `-C` or `--base-directory`: relative operands resolve here. */
  base: string | null;
  readonly depth: DepthLimit = { min: 0, max: null };

  constructor(pathGlobs: boolean, recursive: boolean, base: string | null) {
    this.filters = newFilters(pathGlobs);
    this.recursive = recursive;
    this.base = base;
  }

  stem(text: string): void {
    this.stemWords.push(text);
  }

  include(glob: string, fold = false): void {
    addGlob(this.filters, glob, false, fold);
    this.stem(glob);
  }

  exclude(glob: string, fold = false): void {
    addGlob(this.filters, glob, true, fold);
  }
}

/** Resolves `dir` against the collector's base: literal words only. */
function rebase(word: ShellWord, base: string | null, ctx: ArgsContext): string | null {
  const text = word.text;
  if (word.expands || text === "" || text.startsWith("-") || text.startsWith("~")) return null;
  if (ctx.dialect === "bash" && text.includes("\\")) return null;
  const parts = parsePath(text);
  if (parts.root === "" && base === null) return null;
  return formatPath(absolutePath(text, base ?? "/", ctx.processCwd));
}

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
): Collector {
  const spec = FAMILIES[family];
  const c = new Collector(spec.pathGlobs, spec.recursive, ctx.base);
  const positionals: Positional[] = [];
  let patternGiven = false;
  let noPattern = false;
  let dashes = false;
  const switches: string[] = [];
  const feed = (role: FlagRole, value: ShellWord | null, at: number, flag: string): boolean => {
    if (role === "pattern") patternGiven = true;
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

/** Git pathspec magic words that keep a pathspec readable, and what they change. */
const GIT_MAGIC: Readonly<Record<string, "glob" | "literal" | "icase">> = {
  glob: "glob",
  literal: "literal",
  icase: "icase",
};

/** A find name test, before it is known whether it includes or excludes. */
interface NameTest {
  role: "name" | "iname" | "path" | "ipath" | "regex";
  value: string;
  negated: boolean;
  pruned: boolean;
}

/** Reads find's (or bfs's) paths and expression. */
function readFind(words: ShellWord[], offset: number, ctx: ArgsContext): Collector {
  const c = new Collector(false, true, ctx.base);
  let i = 0;
  while (i < words.length) {
    const t = words[i].text;
    if (Object.hasOwn(FIND_LEADING_OPTIONS, t)) i += 1 + FIND_LEADING_OPTIONS[t];
    else if (/^-O[0-9]*$/.test(t)) i++;
    else break;
  }
  for (; i < words.length; i++) {
    const t = words[i].text;
    if (t.startsWith("-") || t === "!" || t === "(" || t === ")" || t === ",") break;
    c.operands.push({ word: words[i], index: offset + i, mayName: true, git: false });
    c.stem(t);
  }
  const tests: NameTest[] = [];
  // Per open group: where its tests start, where its current and-chain starts, and its negation.
  const chains: { start: number; chainStart: number; negated: boolean }[] = [
    { start: 0, chainStart: 0, negated: false },
  ];
  let closedGroup: { from: number } | null = null;
  let negateNext = false;
  for (; i < words.length; i++) {
    const t = words[i].text;
    const group = chains[chains.length - 1];
    if (t === "(") {
      chains.push({
        start: tests.length,
        chainStart: tests.length,
        negated: group.negated !== negateNext,
      });
      negateNext = false;
      closedGroup = null;
      continue;
    }
    if (t === ")") {
      if (chains.length > 1) {
        const closed = chains.pop()!;
        closedGroup = { from: closed.start };
      }
      continue;
    }
    const primary = Object.hasOwn(FIND_PRIMARIES, t)
      ? FIND_PRIMARIES[t]
      : { role: "value" as const, values: 0 };
    switch (primary.role) {
      case "not":
        negateNext = !negateNext;
        continue;
      case "or":
        group.chainStart = tests.length;
        closedGroup = null;
        continue;
      case "prune": {
        const from = closedGroup ? closedGroup.from : group.chainStart;
        for (let k = from; k < tests.length; k++) tests[k].pruned = true;
        closedGroup = null;
        continue;
      }
      case "exec":
        while (i + 1 < words.length && words[i + 1].text !== ";" && words[i + 1].text !== "+") {
          c.stem(words[++i].text);
        }
        i++;
        closedGroup = null;
        continue;
      case "unreadable":
        c.filters.unreadable = true;
        i += primary.values;
        continue;
      case "max-depth":
      case "min-depth":
        c.stem(t);
        limitDepth(c.depth, primary.role, words[i + 1]?.text ?? "");
        i += primary.values;
        continue;
      case "operand":
        if (i + 1 < words.length) {
          c.operands.push({ word: words[i + 1], index: offset + i + 1, mayName: true, git: false });
          c.stem(words[i + 1].text);
        }
        i += primary.values;
        continue;
      case "value":
        c.stem(t);
        for (let k = 1; k <= primary.values && i + k < words.length; k++) c.stem(words[i + k].text);
        i += primary.values;
        negateNext = false;
        closedGroup = null;
        continue;
      default: {
        const value = words[i + 1]?.text ?? "";
        tests.push({
          role: primary.role,
          value,
          negated: group.negated !== negateNext,
          pruned: false,
        });
        i += primary.values;
        negateNext = false;
        closedGroup = null;
      }
    }
  }
  for (const test of tests) {
    const fold = test.role === "iname" || test.role === "ipath";
    if (test.negated || test.pruned) {
      if (test.role === "regex") c.filters.unreadable = true;
      else c.exclude(test.value, fold);
    } else if (test.role === "regex") {
      addGlob(c.filters, test.value, false, false, false, true);
      c.stem(test.value);
    } else {
      c.include(test.value, fold);
    }
  }
  return c;
}

/** Binds a PowerShell parameter word the way PowerShell does; null when unknown or ambiguous. */
function psParam(params: readonly PsParam[], word: string): PsParam | null {
  const aliases: Record<string, string> = {};
  for (const p of params) for (const a of p.aliases ?? []) aliases[a] = p.name;
  const name = bindParameter(word, params.map((p) => p.name), aliases);
  return params.find((p) => p.name === name) ?? null;
}

/** The PowerShell roles whose parameter takes a value. */
const PS_VALUE_ROLES: ReadonlySet<PsRole> = new Set<PsRole>([
  "path",
  "literal-path",
  "include",
  "exclude",
  "filter",
  "pattern",
  "depth",
  "value",
  "stdin",
]);

/** The comma-list elements of a word (a word without a list is one element). */
function partsOf(w: ShellWord): readonly string[] {
  return w.parts ?? [w.text];
}

/**
 * Takes a PowerShell value starting with `first`, following a comma list
 * across words (`a, b`), from `words[i]` on. Returns its elements and the
 * index of the first word after it.
 */
function psValue(
  words: ShellWord[],
  i: number,
  first: ShellWord,
): { items: ShellWord[]; next: number } {
  const taken = [first];
  let next = i;
  while (
    next < words.length &&
    (partsOf(taken[taken.length - 1]).at(-1) === "" || partsOf(words[next])[0] === "")
  ) {
    taken.push(words[next++]);
  }
  const items = taken.flatMap((w) =>
    partsOf(w).map((text) => text.trim()).filter((text) => text !== "").map((text) => ({
      text,
      expands: w.expands,
      quoted: w.quoted,
      globs: w.globs,
    }))
  );
  return { items, next };
}

function isParameterWord(w: ShellWord): boolean {
  return w.parameter ?? (w.text.length > 1 && w.text.startsWith("-"));
}

/** The value written after the colon of `-Name:value`, with its comma list. */
function inlineValue(w: ShellWord, value: string): ShellWord {
  const parts = w.parts ? [value.split(",")[0], ...w.parts.slice(1)] : undefined;
  return { ...w, text: value, parts };
}

/** Reads a PowerShell search cmdlet's parameters and positionals. */
function readCmdlet(
  family: "gci" | "sls",
  words: ShellWord[],
  offset: number,
  ctx: ArgsContext,
): Collector {
  const cmdlet = POWERSHELL_CMDLETS[family];
  const c = new Collector(false, cmdlet.recursive, ctx.base);
  let position = 0;
  let hasPath = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    let role: PsRole;
    let value: { items: ShellWord[]; next: number } | null = null;
    const isParameter = isParameterWord(w);
    if (isParameter) {
      const split = splitColonArg(w.text);
      const param = split ? psParam(cmdlet.params, split.name) : null;
      const inline = split?.value ? inlineValue(w, split.value) : null;
      const next = words[i + 1];
      const takesNext = inline === null && next !== undefined && !isParameterWord(next);
      if (!param) {
        // May be an exclusion in disguise: neither it nor a value it may carry is used.
        if (takesNext) i = psValue(words, i + 2, next).next - 1;
        continue;
      }
      role = param.role;
      if (role === "recurse") {
        if (split?.value == null || split.value.toLowerCase() === "$true") c.recursive = true;
        continue;
      }
      if (!PS_VALUE_ROLES.has(role)) continue;
      if (inline !== null) value = psValue(words, i + 1, inline);
      else if (takesNext) value = psValue(words, i + 2, next);
      if (!value) continue;
      i = value.next - 1;
      if (role !== "exclude") c.stem(w.text);
    } else {
      role = cmdlet.positional[position++] ?? "value";
      value = psValue(words, i + 1, w);
      i = value.next - 1;
    }
    const positional = !isParameter;
    for (const item of value.items) {
      switch (role) {
        case "path":
        case "literal-path":
          hasPath = true;
          c.stem(item.text);
          c.operands.push({
            word: item,
            index: offset + i,
            mayName: positional,
            git: false,
            literal: role === "literal-path",
          });
          break;
        case "include":
        case "filter":
          c.include(item.text, true);
          break;
        case "exclude":
          c.exclude(item.text, true);
          break;
        case "pattern":
          c.stem(item.text);
          break;
        case "depth":
          c.recursive = true;
          limitDepth(c.depth, "subdirectory-levels", item.text);
          break;
        case "stdin":
          c.stdin = true;
          break;
        default:
          c.stem(item.text);
      }
    }
  }
  if (family === "sls" && !hasPath) c.stdin = true;
  return c;
}

/** Drops a trailing `/`, `/*` or `/**` from an operand naming a directory. */
function directoryText(text: string): string {
  let t = text;
  for (;;) {
    if (t.length > 1 && t.endsWith("/")) t = t.slice(0, -1);
    else if (t.endsWith("/**")) t = t.slice(0, -3);
    else if (t.endsWith("/*")) t = t.slice(0, -2);
    else return t;
  }
}

/**
 * True when the shell or the tool expands the operand's glob characters:
 * git reads its pathspecs as globs however they are quoted, PowerShell
 * expands wildcards in paths itself, and bash only expands unquoted ones
 * (the lexer has already applied brace expansion).
 */
function wildcard(op: RawOperand, ctx: ArgsContext): boolean {
  const w = op.word;
  if (op.git || ctx.dialect === "powershell") return hasGlobChars(w.text);
  return w.globs;
}

/** Resolves one operand against the segment's base. */
function resolveOperand(op: RawOperand, base: string | null, ctx: ArgsContext): Operand {
  const w = op.word;
  let text = w.text;
  if (w.expands || text === "" || text.startsWith("~")) return { kind: "unresolvable" };
  if (ctx.dialect === "bash" && text.includes("\\")) return { kind: "unresolvable" };
  let gitStyle = op.git;
  let fold = false;
  let literal = op.literal === true || !wildcard(op, ctx) || !hasGlobChars(text);
  if (op.git && text.startsWith(":")) {
    const magic = readGitMagic(text);
    if (magic === null) return { kind: "unresolvable" };
    text = magic.text;
    if (magic.words.has("literal")) literal = true;
    if (magic.words.has("glob")) gitStyle = false;
    fold = magic.words.has("icase");
  }
  const slashed = ctx.dialect === "powershell" ? text.replaceAll("\\", "/") : text;
  const absolute = parsePath(slashed).root !== "";
  if (!absolute && base === null) return { kind: "unresolvable" };
  const anchorBase = base ?? "/";
  if (literal) {
    return { kind: "path", place: absolutePath(slashed, anchorBase, ctx.processCwd) };
  }
  const segments = slashed.split("/");
  const firstGlob = segments.findIndex(hasGlobChars);
  const lead = segments.slice(0, firstGlob).join("/");
  const anchor = absolutePath(
    lead === "" && !absolute ? "." : lead || "/",
    anchorBase,
    ctx.processCwd,
  );
  return { kind: "glob", anchor, glob: segments.slice(firstGlob).join("/"), gitStyle, fold };
}

/** Reads the `:(magic)` or `:/` prefix of a git pathspec; null when it cannot be honoured. */
function readGitMagic(text: string): { text: string; words: Set<string> } | null {
  if (!text.startsWith(":(")) return null;
  const close = text.indexOf(")");
  if (close < 0) return null;
  const words = new Set<string>();
  for (const m of text.slice(2, close).split(",")) {
    const word = m.trim().toLowerCase();
    if (!Object.hasOwn(GIT_MAGIC, word)) return null;
    words.add(GIT_MAGIC[word]);
  }
  return { text: text.slice(close + 1), words };
}

/** The directory an operand names exactly, if any (new-file credit). */
function namedDir(op: RawOperand, base: string | null, ctx: ArgsContext): NamedDir | null {
  if (!op.mayName || op.word.expands || (op.git && op.word.text.startsWith(":"))) return null;
  const text = directoryText(
    ctx.dialect === "powershell" ? op.word.text.replaceAll("\\", "/") : op.word.text,
  );
  if (text === "." || text === "" || text.startsWith("~") || text.startsWith("$")) return null;
  if (hasGlobChars(text)) return null;
  const resolved = resolveOperand({ ...op, word: { ...op.word, text, globs: false } }, base, ctx);
  return resolved.kind === "path" ? { place: resolved.place, mustExist: true } : null;
}

/** Turns a filled collector into evidence. */
function finish(c: Collector, segment: ShellSegment, ctx: ArgsContext): SearchEvidence {
  const operands = c.operands.map((op) => resolveOperand(op, c.base, ctx));
  const firstOperand = c.operands.length > 0
    ? Math.min(...c.operands.map((o) => o.index))
    : Infinity;
  const redirected = segment.inputRedirectAt !== null && segment.inputRedirectAt <= firstOperand;
  const angled = segment.words.some((w) => w.text.includes("<"));
  const noTree = c.operands.length === 0 && (!c.recursive || segment.piped);
  const cwd = c.base === null ? null : absolutePath(c.base, "/", ctx.processCwd);
  // A search held at depth 0 reads no file of its directories.
  const namedDirs = ctx.dirEvidence && c.depth.max !== 0
    ? c.operands.map((op) => namedDir(op, c.base, ctx)).filter((d): d is NamedDir => d !== null)
    : [];
  return {
    stemTexts: c.stemWords.map((s) => s.toLowerCase()),
    filters: c.filters,
    scope: { kind: "operands", operands, cwd, depth: c.depth },
    namedDirs,
    stdinOnly: c.stdin || redirected || angled || noTree,
  };
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
  let c: Collector;
  if (family === "find") c = readFind(words, argsFrom, ctx);
  else if (family === "gci" || family === "sls") c = readCmdlet(family, words, argsFrom, ctx);
  else c = readFamily(family, words, argsFrom, ctx);
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
