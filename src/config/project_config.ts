/**
 * The optional project file `.gateguard.jsonc`: its keys, how each value is
 * validated, the commented starter text `gateguard init --config` writes,
 * and the literal command phrases its `destructiveCommands` key adds to the
 * destructive shell gate.
 *
 * The agent can edit this file, so nothing here trusts it: a value that
 * fails validation is dropped (the built-in behaviour stays), unknown keys
 * are listed for `gateguard doctor`, and the phrases are matched word by
 * word without ever building a RegExp from them. How far each key may relax
 * the gate is decided where the layers meet, in `settings.ts`.
 *
 * @module
 */

import { type JsonError, type JsonNode, parseJsonc, positionAt, positionCursor } from "./jsonc.ts";
import { hasUnsafeCharacter } from "../platform/terminal_text.ts";
import type { WorkBudget } from "../platform/budget.ts";
import { baseName } from "../platform/path.ts";

/** The values a well-formed project file may set. Absent keys leave the default. */
export interface ProjectConfig {
  /** Extra project-relative exempt globs (never exempt sensitive or hard-linked targets). */
  exemptGlobs?: readonly string[];
  /** First-touch gates of Edit, Write, MultiEdit and NotebookEdit. */
  fileGates?: boolean;
  /** Always true when present: the file cannot turn this gate off. */
  destructiveShell?: boolean;
  /** The once-per-session routine shell gate. */
  routineShell?: boolean;
  /** Denials that carry the full fact block. */
  fullDenials?: number;
  /** The denial cap, used only when the environment sets none. */
  maxDenials?: number;
  /** Extra destructive commands, as literal word sequences. */
  destructiveCommands?: readonly string[];
  /** Destructive pack switches: `-name` switches a pack off, `+name` an opt-in pack on. */
  destructivePacks?: readonly string[];
  /** Text appended to every denial. */
  domainText?: string;
  /**
   * Destructive command phrases or path globs to let through without a
   * denial (the destructive gate's narrow escape hatch). It loosens, so it
   * applies only from a file the user trusted (`trust_rules.ts`).
   */
  allowDestructive?: readonly string[];
  /**
   * `"ask"`: a destructive command is asked of the user (Claude Code) instead
   * of denied until retried. It loosens, so it applies only when trusted.
   */
  destructiveDecision?: "deny" | "ask";
}

/** One problem with one key or list entry, at its place in the file. */
export interface ConfigIssue {
  /** The key, with an index for a list entry (`exemptGlobs[2]`). */
  key: string;
  line: number;
  column: number;
  message: string;
}

/** A parsed project file, or the syntax error that makes it unusable. */
export type ProjectConfigResult =
  | { ok: true; config: ProjectConfig; unknownKeys: ConfigIssue[]; invalid: ConfigIssue[] }
  | { ok: false; error: JsonError };

/** At most this many entries are kept from a list key. */
export const MAX_LIST_ENTRIES = 64;
/** Longest exempt glob accepted, in characters (the glob matcher's own bound). */
export const MAX_GLOB_LENGTH = 256;
/** Longest destructive command phrase accepted, in characters. */
export const MAX_PHRASE_LENGTH = 200;
/** Most words in one destructive command phrase. */
export const MAX_PHRASE_WORDS = 16;
/** Longest domain text accepted, in characters: it rides on every denial. */
export const MAX_DOMAIN_TEXT = 2000;
/** Most issues of one kind listed; the rest are summed up in one last issue. */
export const MAX_REPORTED_ISSUES = 16;

type Check = { ok: true; value: unknown } | { ok: false; message: string };
type EntryIssue = { index: number; node: JsonNode; message: string };
type KeyReader = (node: JsonNode, issues: EntryIssue[]) => Check;

const bad = (message: string): Check => ({ ok: false, message });

function stringOf(node: JsonNode): string | null {
  return node.type === "string" ? node.value as string : null;
}

function readBoolean(node: JsonNode): Check {
  return node.type === "boolean" ? { ok: true, value: node.value } : bad("expected true or false");
}

function readWholeNumber(node: JsonNode): Check {
  if (node.type !== "number" || !Number.isSafeInteger(node.value) || (node.value as number) < 0) {
    return bad("expected a whole number of 0 or more");
  }
  return { ok: true, value: node.value };
}

/** Reads a list of strings, dropping (and reporting) the entries `entryProblem` rejects. */
function stringList(entryProblem: (entry: string) => string | null): KeyReader {
  return (node, issues) => {
    if (node.type !== "array") return bad("expected a list of strings");
    const kept: string[] = [];
    node.items.forEach((item, index) => {
      const entry = stringOf(item);
      const problem = entry === null
        ? "expected a string"
        : index >= MAX_LIST_ENTRIES
        ? `more than ${MAX_LIST_ENTRIES} entries`
        : entryProblem(entry);
      if (problem !== null) issues.push({ index, node: item, message: problem });
      else if (entry !== null) kept.push(entry);
    });
    return { ok: true, value: kept };
  };
}

function globProblem(glob: string): string | null {
  if (glob.trim() === "") return "empty glob";
  return glob.length > MAX_GLOB_LENGTH ? `longer than ${MAX_GLOB_LENGTH} characters` : null;
}

function phraseProblem(phrase: string): string | null {
  if (phrase.length > MAX_PHRASE_LENGTH) return `longer than ${MAX_PHRASE_LENGTH} characters`;
  const words = commandWords(phrase);
  if (words.length === 0) return "no command words";
  return words.length > MAX_PHRASE_WORDS ? `more than ${MAX_PHRASE_WORDS} words` : null;
}

function readDomainText(node: JsonNode): Check {
  const lines = node.type === "array" ? node.items.map(stringOf) : [stringOf(node)];
  if (lines.some((line) => line === null)) {
    return bad("expected a string or a list of strings (one per line)");
  }
  const text = lines.join("\n").trim();
  if (text.length > MAX_DOMAIN_TEXT) return bad(`longer than ${MAX_DOMAIN_TEXT} characters`);
  if (hasUnsafeCharacter(text)) {
    return bad("contains control, bidirectional-override or line-separator characters");
  }
  return { ok: true, value: text === "" ? undefined : text };
}

function readDestructiveShell(node: JsonNode): Check {
  if (node.type !== "boolean") return bad("expected true");
  return node.value
    ? { ok: true, value: true }
    : bad("the project file cannot turn off the destructive shell gate");
}

/** Every key of the file and how its value is read. */
const KEYS: Readonly<Record<keyof ProjectConfig, KeyReader>> = {
  exemptGlobs: stringList(globProblem),
  fileGates: readBoolean,
  destructiveShell: readDestructiveShell,
  routineShell: readBoolean,
  fullDenials: readWholeNumber,
  maxDenials: readWholeNumber,
  destructiveCommands: stringList(phraseProblem),
  destructivePacks: stringList((entry) =>
    /^[+-]?[A-Za-z][A-Za-z0-9-]*$/.test(entry.trim()) ? null : "expected +name or -name"
  ),
  domainText: readDomainText,
  allowDestructive: stringList(globProblem),
  destructiveDecision: (node) =>
    node.type === "string" && (node.value === "deny" || node.value === "ask")
      ? { ok: true, value: node.value }
      : bad('expected "deny" or "ask"'),
};

/** The keys a project file may hold, in documentation order. */
export const PROJECT_CONFIG_KEYS: readonly (keyof ProjectConfig)[] = Object.keys(
  KEYS,
) as (keyof ProjectConfig)[];

/**
 * A list of issues that keeps the first `MAX_REPORTED_ISSUES` and sums up
 * the rest in one last issue, with positions found in one pass over the
 * text: a file of thousands of bad entries costs linear time and a short
 * report.
 */
function issueList(text: string): {
  add(key: string, offset: number, message: string): void;
  done(): ConfigIssue[];
} {
  const cursor = positionCursor(text);
  const kept: ConfigIssue[] = [];
  let more = 0;
  let firstMore: ConfigIssue | null = null;
  return {
    add(key, offset, message) {
      if (kept.length < MAX_REPORTED_ISSUES) {
        kept.push({ key, ...cursor.at(offset), message });
        return;
      }
      if (more++ === 0) firstMore = { key, ...cursor.at(offset), message: "" };
    },
    done() {
      if (firstMore === null) return kept;
      const from: ConfigIssue = firstMore;
      return [...kept, { ...from, message: `${more} more problems from here on, not listed` }];
    },
  };
}

/** Parses and validates the text of a project file. Never throws. */
export function parseProjectConfig(text: string): ProjectConfigResult {
  const parsed = parseJsonc(text);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const root = parsed.root;
  if (root.type !== "object") {
    return {
      ok: false,
      error: {
        message: "the file must hold one object ({ ... })",
        offset: root.offset,
        ...positionAt(text, root.offset),
      },
    };
  }
  const config: Record<string, unknown> = {};
  const unknownKeys = issueList(text);
  const invalid = issueList(text);
  for (const property of root.properties) {
    const { key, value } = property;
    if (!Object.hasOwn(KEYS, key)) {
      unknownKeys.add(key, property.keyOffset, "unknown key");
      continue;
    }
    const entryIssues: EntryIssue[] = [];
    const check = KEYS[key as keyof ProjectConfig](value, entryIssues);
    if (!check.ok) invalid.add(key, value.offset, check.message);
    for (const e of entryIssues) invalid.add(`${key}[${e.index}]`, e.node.offset, e.message);
    if (check.ok && check.value !== undefined) config[key] = check.value;
  }
  return {
    ok: true,
    config: config as ProjectConfig,
    unknownKeys: unknownKeys.done(),
    invalid: invalid.done(),
  };
}

/** Separators between command words: whitespace and shell control characters. */
const WORD_BREAKS = new Set([..." \t\n\r;|&()<>{}"].map((c) => c.charCodeAt(0)));
/** Quoting characters, dropped so `'terraform' destroy` reads as two plain words. */
const QUOTES = new Set([..."'\"`\\"].map((c) => c.charCodeAt(0)));

/** Lowercased words of a command or phrase, with quoting removed. */
function commandWords(text: string): string[] {
  const lower = text.toLowerCase();
  const words: string[] = [];
  let current = "";
  let run = 0;
  for (let k = 0; k <= lower.length; k++) {
    const c = k < lower.length ? lower.charCodeAt(k) : 32;
    const isBreak = WORD_BREAKS.has(c);
    if (!isBreak && !QUOTES.has(c)) continue;
    current += lower.slice(run, k);
    run = k + 1;
    if (isBreak && current !== "") {
      words.push(current);
      current = "";
    }
  }
  return words;
}

/**
 * True when the words of one phrase appear one after another in the
 * command, case-insensitively; a command word also matches by its base name
 * (`/usr/bin/terraform` matches `terraform`). Quoting and shell operators are
 * ignored, which can only add matches, never hide one. With a `budget`, the
 * command's characters and every phrase tried at a word are paid for; a
 * match the budget cannot pay for counts as a match (fail closed).
 */
export function matchesDestructiveCommand(
  command: string,
  phrases: readonly string[],
  budget?: WorkBudget,
): boolean {
  const byFirstWord = new Map<string, Map<string, string[]>>();
  for (const phrase of phrases) {
    const words = commandWords(phrase);
    if (words.length === 0) continue;
    const group = byFirstWord.get(words[0]) ?? new Map<string, string[]>();
    group.set(words.join(" "), words);
    byFirstWord.set(words[0], group);
  }
  if (byFirstWord.size === 0) return false;
  if (budget && !budget.spend(command.length, "phrases")) return true;
  const words = commandWords(command);
  const bases = words.map(baseName);
  const fits = (phrase: readonly string[], at: number): boolean => {
    if (budget && !budget.spend(phrase.length, "phrases")) return true;
    if (at + phrase.length > words.length) return false;
    for (let k = 0; k < phrase.length; k++) {
      if (words[at + k] !== phrase[k] && bases[at + k] !== phrase[k]) return false;
    }
    return true;
  };
  for (let at = 0; at < words.length; at++) {
    const firsts = bases[at] === words[at] ? [words[at]] : [words[at], bases[at]];
    for (const first of firsts) {
      for (const phrase of byFirstWord.get(first)?.values() ?? []) {
        if (fits(phrase, at)) return true;
      }
    }
  }
  return false;
}

/** The commented starter file of `gateguard init --config`; every key is commented out. */
export const STARTER_CONFIG =
  `// GateGuard project settings (JSONC: comments and trailing commas are fine).
// Every key is optional; remove the // in front of a key to use it.
// Environment variables always win over this file. The agent can edit this
// file too, so keys that loosen the gate apply only after you have read the
// file and run "gateguard trust" (again after every change), and only in the
// narrow ways listed in docs/configuration.md; "gateguard doctor" reports any
// mistake in it and which keys wait for trust.
{
  // Globs (project-relative, / separators) of files that skip the
  // first-touch questions. Unlike GATEGUARD_EXEMPT_GLOBS, these never cover
  // sensitive or hard-linked files.
  // "exemptGlobs": ["**/dist/**", "**/*.generated.ts"],

  // Turn the first-touch file gates or the once-per-session shell gate off.
  // "fileGates": true,
  // "routineShell": true,
  // The destructive shell gate stays on whatever this file says; only true
  // is accepted here.
  // "destructiveShell": true,

  // How many denials show the full list of questions before they shrink to
  // one line (GATEGUARD_FACT_FORCE_FULL_DENIALS wins when set).
  // "fullDenials": 3,

  // Stop denying new files after this many denials in a session. Ignored when
  // GATEGUARD_FACT_FORCE_MAX_DENIALS is set; never applies to sensitive files.
  // "maxDenials": 20,

  // More commands to treat as destructive: plain words, matched in order,
  // not regular expressions.
  // "destructiveCommands": ["terraform destroy", "kubectl delete"],

  // Destructive packs to switch off ("-name") or on ("+name"); see
  // docs/packs.md. The core pack stays on; the publish pack is opt-in.
  // GATEGUARD_DESTRUCTIVE_PACKS is applied after this list.
  // "destructivePacks": ["-cloud", "+publish"],

  // Destructive commands to let through without a denial: path globs
  // (every path the command deletes must lie under one) or whole command
  // phrases. Never for the home folder, a filesystem root, the project root
  // or .git. It loosens, so it applies only from a trusted file.
  // "allowDestructive": ["dist/**", "build/**", "npm run clean"],

  // With ask, Claude Code asks you about a destructive command instead of
  // denying it until it is retried. Applies only from a trusted file.
  // "destructiveDecision": "ask",

  // Project conventions added to every denial, one string or a list of lines.
  // "domainText": [
  //   "Dates in data files are written as %Y/%m/%d %H:%M.",
  //   "Run \`make check\` before every commit."
  // ],
}
`;
