/**
 * The evidence of one search segment while its arguments are read: stem
 * text, file-name filters, path operands, recursion and depth, and how the
 * filled collection becomes evidence once every argument is read (operands
 * resolved against the segment's base, git pathspec magic honoured, named
 * directories picked out for new-file credit).
 *
 * The readers of each tool's arguments (`shell_args.ts`, `find_args.ts`,
 * `cmdlet_args.ts`) fill one collector per segment.
 *
 * @module
 */

import { NON_FILE_KINDS } from "./tool_flags.ts";
import {
  absolutePath,
  type Anchor,
  anchorOf,
  formatPath,
  isAbsolute,
  joinPath,
  parsePath,
  type PathParts,
} from "../file_facts/paths.ts";
import { addGlob, hasGlobChars, newFilters, type SearchFilters } from "./filters.ts";
import type {
  ArgsContext,
  DepthLimit,
  NamedDir,
  Operand,
  PatternSyntax,
  SearchEvidence,
  ShellSegment,
  ShellWord,
} from "./types.ts";

/** A path argument before resolution. */
export interface RawOperand {
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
export class Collector {
  readonly filters: SearchFilters;
  readonly stemWords: string[] = [];
  readonly operands: RawOperand[] = [];
  recursive: boolean;
  stdin = false;
  /** Nothing it finds is shown: a quiet or count-only option, a zero cap, only directories. */
  silent = false;
  /** It skips hidden files below its paths (rg and fd unless told otherwise). */
  skipsHidden = false;
  /** It skips what `.gitignore` ignores (rg, fd and git grep unless told otherwise). */
  skipsIgnored = false;
  /** How many times ripgrep's `-u` was given. */
  unrestricted = 0;
  /** fd's `-t` values: the kinds of entries listed, any of them. */
  readonly entryTypes: string[] = [];
  /** Set by `-C` or `--base-directory`: relative operands resolve here. */
  base: string | null;
  readonly depth: DepthLimit = { min: 0, max: null };
  /** How a content search reads its patterns; null for a search of names. */
  syntax: PatternSyntax | null;
  /** The patterns of a content search, as given. */
  readonly patterns: string[] = [];
  /** Some pattern cannot be read: it comes from a file or a variable. */
  patternsUnknown = false;
  /** The search shows what does not match as written (`-v`, `-x`, `-L`). */
  inverted = false;

  /**
   * An empty collector: `pathGlobs` as the tool reads its globs, recursion
   * and base by default, `syntax` for a content search (else null).
   */
  constructor(
    pathGlobs: boolean,
    recursive: boolean,
    base: string | null,
    syntax: PatternSyntax | null = null,
  ) {
    this.filters = newFilters(pathGlobs);
    this.recursive = recursive;
    this.base = base;
    this.syntax = syntax;
  }

  /** Records a pattern of a content search; one that expands cannot be read. */
  pattern(word: Pick<ShellWord, "text" | "expands"> | null): void {
    if (word === null || word.expands) this.patternsUnknown = true;
    else this.patterns.push(word.text);
  }

  /** An option chose how a content search reads its patterns. */
  chooseSyntax(syntax: PatternSyntax): void {
    if (this.syntax !== null) this.syntax = syntax;
  }

  /** Adds text the search matches on, for stem credit. */
  stem(text: string): void {
    this.stemWords.push(text);
  }

  /** Adds a file-name filter that includes, and keeps it as stem text. */
  include(glob: string, fold = false): void {
    addGlob(this.filters, glob, false, fold);
    this.stem(glob);
  }

  /** Adds a file-name filter that excludes. */
  exclude(glob: string, fold = false): void {
    addGlob(this.filters, glob, true, fold);
  }
}

/** Resolves `dir` against the collector's base: literal words only. */
export function rebase(word: ShellWord, base: string | null, ctx: ArgsContext): string | null {
  const text = word.text;
  if (word.expands || text === "" || text.startsWith("-") || text.startsWith("~")) return null;
  if (ctx.dialect === "bash" && text.includes("\\")) return null;
  const parts = parsePath(text);
  if (parts.root === "" && base === null) return null;
  return formatPath(absolutePath(text, base ?? "/", ctx.processCwd));
}

/** Git pathspec magic words that keep a pathspec readable, and what they change. */
const GIT_MAGIC: Readonly<Record<string, "glob" | "literal" | "icase">> = {
  glob: "glob",
  literal: "literal",
  icase: "icase",
};

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

/**
 * Where one segment's operands resolve: its base (null: unknown), read
 * once for all of them, since a base can be thousands of characters deep
 * and a command can hold thousands of operands; and the glob anchors met
 * so far, by their leading text.
 */
interface Resolver {
  base: string | null;
  processCwd: string;
  anchor: Anchor | null;
  leads: Map<string, PathParts>;
}

function resolverFor(base: string | null, ctx: ArgsContext): Resolver {
  return { base, processCwd: ctx.processCwd, anchor: null, leads: new Map() };
}

/**
 * Path segments joined by operand resolution so far in this process. Each
 * resolution copies the whole base, so a command of many operands run in
 * a deep directory costs far more than its characters: callers read this
 * before and after a parse and charge the difference.
 */
let joined = 0;

/** The segments operand resolution has joined so far (see `joined`). */
export function resolutionSteps(): number {
  return joined;
}

/**
 * Deepest base an operand is resolved against. Each resolved operand holds
 * a copy of its base, so a command of thousands of operands run thousands
 * of directories deep would cost its characters times the depth; deeper
 * than any project, such a base leaves its relative operands unresolvable
 * (they scope nothing, so they only ever lose credit).
 */
const MAX_BASE_DEPTH = 256;

/** `path` made absolute against the resolver's base; null when the base is too deep. */
function resolvePath(r: Resolver, path: string): PathParts | null {
  r.anchor ??= anchorOf(r.base ?? "/", r.processCwd);
  const depth = r.anchor.folded.segments.length;
  if (depth > MAX_BASE_DEPTH && !isAbsolute(path)) return null;
  joined += depth + 1;
  return joinPath(path, r.anchor);
}

/** Resolves one operand against the segment's base. */
function resolveOperand(op: RawOperand, r: Resolver, ctx: ArgsContext): Operand {
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
  const absolute = isAbsolute(slashed);
  if (!absolute && r.base === null) return { kind: "unresolvable" };
  if (literal) {
    const place = resolvePath(r, slashed);
    return place ? { kind: "path", place } : { kind: "unresolvable" };
  }
  const segments = slashed.split("/");
  const firstGlob = segments.findIndex(hasGlobChars);
  const lead = segments.slice(0, firstGlob).join("/");
  const leadText = lead === "" && !absolute ? "." : lead || "/";
  let anchor = r.leads.get(leadText) ?? null;
  if (!anchor) {
    anchor = resolvePath(r, leadText);
    if (!anchor) return { kind: "unresolvable" };
    r.leads.set(leadText, anchor);
  }
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
function namedDir(op: RawOperand, r: Resolver, ctx: ArgsContext): NamedDir | null {
  if (!op.mayName || op.word.expands || (op.git && op.word.text.startsWith(":"))) return null;
  const text = directoryText(
    ctx.dialect === "powershell" ? op.word.text.replaceAll("\\", "/") : op.word.text,
  );
  if (text === "." || text === "" || text.startsWith("~") || text.startsWith("$")) return null;
  if (hasGlobChars(text)) return null;
  const word = { ...op.word, text, globs: false };
  const resolved = resolveOperand({ ...op, word }, r, ctx);
  return resolved.kind === "path" ? { place: resolved.place, mustExist: true } : null;
}

/** Turns a filled collector into evidence. */
export function finish(c: Collector, segment: ShellSegment, ctx: ArgsContext): SearchEvidence {
  const r = resolverFor(c.base, ctx);
  const operands = c.operands.map((op) => resolveOperand(op, r, ctx));
  const firstOperand = c.operands.length > 0
    ? Math.min(...c.operands.map((o) => o.index))
    : Infinity;
  const redirected = segment.inputRedirectAt !== null && segment.inputRedirectAt <= firstOperand;
  const angled = segment.words.some((w) => w.text.includes("<"));
  const noTree = c.operands.length === 0 && (!c.recursive || segment.piped);
  const cwd = c.base === null ? null : absolutePath(c.base, "/", ctx.processCwd);
  // A search held at depth 0 reads no file of its directories.
  const namedDirs = ctx.dirEvidence && c.depth.max !== 0
    ? c.operands.map((op) => namedDir(op, r, ctx))
      .filter((d): d is NamedDir => d !== null)
    : [];
  const symbol = c.syntax !== null && !c.patternsUnknown && !c.inverted && c.patterns.length > 0
    ? { symbol: { patterns: c.patterns, syntax: c.syntax } }
    : {};
  return {
    ...symbol,
    stemTexts: c.stemWords.map((s) => s.toLowerCase()),
    filters: c.filters,
    scope: { kind: "operands", operands, cwd, depth: c.depth },
    namedDirs,
    stdinOnly: c.stdin || redirected || angled || noTree,
    skips: { hidden: c.skipsHidden, ignored: c.skipsIgnored },
    unseen: c.silent ||
      (c.entryTypes.length > 0 && c.entryTypes.every((kind) => NON_FILE_KINDS.has(kind))),
  };
}
