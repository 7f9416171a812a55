/**
 * The destructive-command detector behind the destructive shell gate.
 *
 * A well-formed command is read through the shared lexers: every simple
 * command, including those in substitutions, groups, compound commands and
 * scripts handed to other shells, is unwrapped and checked against
 * per-program rules, so quoted data such as a commit message or an `echo`
 * argument is never mistaken for a command. Text fed to a program's stdin
 * (a pipe, a here-document, a here-string) is checked when the program
 * consumes it as code: SQL for SQL clients, a script for shells.
 *
 * When a lexer cannot vouch for the whole command (too long, unbalanced,
 * nested too deep), or a wrapper chain is too deep to follow, the segments
 * that were read are still checked and a crude token scan of the raw text
 * looks for the same forms anywhere, quotes ignored. An unparseable command
 * is therefore destructive whenever a destructive form appears in it.
 *
 * What is destructive is data: the packs of `shell/packs/`, each a table
 * of rules over a program name and its arguments. This module is the
 * engine that reads every command down to those names and arguments and
 * names the pack and rule that fired.
 *
 * Decisions:
 * - `rm` with any recursive option is destructive, forced or not: with no
 *   terminal on stdin a recursive delete does not prompt, and PowerShell's
 *   `Remove-Item -Recurse` (its equivalent) is treated the same way.
 *   `rm -f file` and `rm file` are not.
 * - `git push --force-with-lease` is destructive when it may overwrite
 *   main/master/develop/trunk, including when no refspec names a branch.
 * - `git rm -r --cached` only untracks files and is not destructive.
 * - Dry runs (`git clean -n`, `git push -n`, `Remove-Item -WhatIf`) are not.
 * - `Remove-Item` fed by a recursive `Get-ChildItem` (directly or through a
 *   `ForEach-Object` script block) removes a tree and counts as recursive.
 * - A command word known only at run time is read from its source text
 *   (`$(echo rm) -rf x`), values the same command line gives are
 *   substituted (`x=rm; $x -rf /`, arrays, `set --`, `read`, `printf -v`,
 *   `for … in`, a custom `IFS`, `hash -p`), and a glob command word is tried as every checked program it
 *   could match (`/???/r? -rf x`). A program named by a substitution whose
 *   text gives nothing away (`$(printf '\x72\x6d') -rf x`), or by a
 *   variable the line never sets (`$x reset --hard`), counts when its
 *   arguments only make sense as a forced recursive `rm` or a destructive
 *   git subcommand with options (`$GREP -r x` and `$MAKE clean` do not).
 * - An argument made only of expansions the line leaves unresolved
 *   (`rm $o x`, `git reset "$@"`, `rm $(tool) x`) may be any option when it
 *   runs: it is tried as each option that makes a rule fire, so only `--`,
 *   literal text before it, or a command that prints only paths keeps it
 *   an operand. A call of a function the line defines gives the body the
 *   call's arguments (`zap() { rm "$@"; }; zap -rf x`).
 * - An `echo` or `printf` substitution is read as what it writes
 *   (`rm $(echo -rf) x`); a substitution that runs a decoder (`base64 -d`,
 *   `rev`, …) cannot be read, so as a command word, as an argument of a
 *   checked program or as a shell's script it counts as destructive.
 * - `git branch -f/-M/-C` overwrite or reset a branch like `-D` deletes one;
 *   `git clean` without `-f` counts once `clean.requireForce` is set off.
 * - A script made only of variables the line never sets (`eval "$x"`,
 *   `bash -c "$CMD"`, `echo "$x" | sh`, PowerShell's `iex $x`) is decided
 *   outside the command and counts as destructive (`core/hidden-script`).
 * - A script fetched from the network into a shell, an interpreter or
 *   `Invoke-Expression` (`curl … | sh`, `bash <(curl …)`, `irm … | iex`)
 *   cannot be read before it runs and counts as destructive.
 * - Files a program cannot be seen reading (`psql < dump.sql`) are unknown
 *   and pass; text it visibly reads (`psql -f <(echo …)`, a pipe, a
 *   here-document) is checked.
 * - The extra pattern is matched case-sensitively, as written, against the
 *   raw command; it is operator configuration, so its cost is theirs.
 *
 * @module
 */

import { MAX_LEX_CHARS } from "../bash/mod.ts";
import type { WorkBudget } from "../../platform/budget.ts";
import {
  type Dialect,
  MAX_WRAPPER_DEPTH,
  type Template,
  typedKeys,
  unwrapCommand,
  type Unwrapped,
} from "./wrappers.ts";
import { COMMAND_RUNNERS, WRAPPERS } from "./wrapper_table.ts";
import { STDIN_PATHS } from "../stdin_markers.ts";
import {
  escapedCommands,
  hasLong,
  hasShort,
  mayBeAnyOption,
  optionCommands,
  PLAIN_COMMANDS,
  programName,
  scanArgs,
} from "../programs/mod.ts";
import type { DestructiveHit } from "../packs/mod.ts";
import {
  asksForHelp,
  dryRunOrHelp,
  indexRules,
  namesCommand,
  pendingPack,
  ruleMatches,
  worstCaseMatches,
} from "./rule_match.ts";
import { CORE_PACK } from "../packs/mod.ts";
import { PACK_MANIFEST } from "../packs/mod.ts";
import {
  afford,
  deeper,
  type DetectBudget,
  type Engine,
  type RuleIndex,
  spend,
  type Verdict,
  type Walk,
} from "./detect_types.ts";
import { rawVerdict, scanWorthy, tokensVerdict } from "./raw_scan.ts";
import { stdinUnreadable, substitutes, unreadableHit, unreadableWord } from "./unreadable.ts";
import { bashVerdict, SCRIPT_READERS } from "./detect_bash.ts";
import { MissingPart, part } from "./parts.ts";
import { assignmentsHit } from "./code_env.ts";
import { baseName } from "../../platform/path.ts";
import type { ShellDialect } from "../dialect.ts";

export type { DestructiveHit } from "../packs/mod.ts";
export type { DetectBudget } from "./detect_types.ts";

/**
 * Most scripts (and glob candidates) one call analyses in full; past it
 * the rest is read with the linear raw token scan, so fan-out through
 * nested wrappers cannot multiply the work.
 */
const MAX_ANALYSES = 1024;

/**
 * Most characters of scripts one call parses in full, the command itself
 * included. Wrappers that hand back nearly all of their text as a script
 * (`docker watch watch … <long tail>`) would otherwise re-parse a long
 * command at every start position and depth, and a hook that outlives its
 * timeout lets the command through.
 */
const MAX_ANALYSED_CHARS = 4 * MAX_LEX_CHARS;

/** Wrappers a glob command word is tried as, besides the programs of the active rules. */
const GLOB_WRAPPERS = [
  "eval",
  "sudo",
  "doas",
  "env",
  "xargs",
  "find",
  "timeout",
  "nice",
  "nohup",
  "command",
  "exec",
  "ssh",
  "su",
  "setsid",
  "stdbuf",
  "time",
  "busybox",
];

/** The hit of the core rule `id` (the fail-closed answers name `unreadable`). */
export function coreHit(id: string): DestructiveHit {
  const rule = CORE_PACK.rules.find((r) => r.id === id);
  return { pack: CORE_PACK.id, rule: id, destroys: rule?.destroys ?? "" };
}

// ---------------------------------------------------------------------------
// One program.

/** Programs that run the script they read on stdin later (`echo … | at now`). */
const STDIN_SCHEDULERS = new Set(["at", "batch"]);

/** Most start positions tried inside one runner's arguments. */
const MAX_RUNNER_STARTS = 64;

function runnerHit(args: readonly string[], stdin: readonly string[], walk: Walk): Verdict {
  const limit = Math.min(args.length, MAX_RUNNER_STARTS);
  for (let i = 0; i < limit; i++) {
    if (args[i].startsWith("-") || args[i] === ":::") continue;
    // Words after a plain command are its arguments, not another command.
    if (i > 0 && PLAIN_COMMANDS.has(programName(args[i - 1]))) break;
    const rest = args.slice(i);
    const raw = rest.join(" ");
    // Each start reads the rest of the line again: it costs its length.
    if (!afford(walk, raw.length)) return rawVerdict(args.join(" "), walk, ENGINE);
    // A quoted script argument (`script -c 'rm -rf x'`, `watch 'rm -rf x'`) is code too.
    const script = /\s/.test(args[i]) ? codeHit("bash", args[i], deeper(walk), stdin) : null;
    if (script) return script;
    const hit = unwrappedHit(unwrapCommand(rest, walk.depth + 1), stdin, deeper(walk), raw);
    if (hit) return hit;
  }
  return null;
}

/**
 * A program the engine has no model of may run its arguments as a command,
 * as `tini -- rm -rf x`, `dotenv -- rm -rf x` or a project's own
 * `./with-env rm -rf x` do; no list of such programs is ever complete. So
 * each of its arguments that names a program some rule applies to, or a
 * wrapper, is read as the start of a command with the words after it. Text
 * that merely spells one (`echo rm -rf x`, `git commit -m 'rm -rf x'`) is
 * either a plain command's or a single word, and opens nothing.
 */
function guessedRunnerHit(args: readonly string[], stdin: readonly string[], walk: Walk): Verdict {
  const limit = Math.min(args.length, MAX_RUNNER_STARTS);
  for (let i = 0; i < limit; i++) {
    const name = programName(args[i]);
    if (args[i].startsWith("-") || !startsCommand(name, walk)) continue;
    const rest = args.slice(i);
    const raw = rest.join(" ");
    if (!afford(walk, raw.length)) return rawVerdict(args.join(" "), walk, ENGINE);
    const inner = { ...deeper(walk), guessed: true };
    const hit = unwrappedHit(unwrapCommand(rest, walk.depth + 1), stdin, inner, raw);
    if (hit) return hit;
    // A plain command takes the words after it as text.
    if (PLAIN_COMMANDS.has(name)) return null;
  }
  return null;
}

/** The programs some pack names, switched on or not, as names and prefixes; built on first use. */
let packPrograms: { names: ReadonlySet<string>; prefixes: readonly string[] } | null = null;

/**
 * Whether a pack's rules model `name`: a pack switched off leaves its
 * programs alone (`aws s3 rm …` is not `rm`), rather than to a guess.
 */
function namedByPack(name: string): boolean {
  packPrograms ??= {
    names: new Set(PACK_MANIFEST.flatMap((p) => p.commands.filter((c) => !c.endsWith("*")))),
    prefixes: PACK_MANIFEST.flatMap((p) =>
      p.commands.filter((c) => c.endsWith("*")).map((c) => c.slice(0, -1))
    ),
  };
  return packPrograms.names.has(name) || packPrograms.prefixes.some((p) => name.startsWith(p));
}

/** Whether a word naming `name` could start a command the engine reads. */
function startsCommand(name: string, walk: Walk): boolean {
  return scanWorthy(name, walk) || Object.hasOwn(WRAPPERS, name) || COMMAND_RUNNERS.has(name) ||
    PLAIN_COMMANDS.has(name);
}

/** The first rule of the active packs that finds `name` run with `args` destructive. */
function rulesHit(
  name: string,
  args: readonly string[],
  stdin: readonly string[],
  walk: Walk,
): Verdict {
  const rules = walk.rules;
  const waiting = pendingPack(rules, name);
  if (waiting !== null) throw new MissingPart(`pack:${waiting}`);
  const candidates = [
    ...(rules.byName.get(name) ?? []),
    ...rules.byPrefix.filter((p) => name.startsWith(p.prefix)).map((p) => p.rule),
  ];
  if (candidates.length === 0) return null;
  // Words decoded at run time (`rm $(echo LXJm | base64 -d) x`) may be any option.
  // (Fetched words are left to the worst-case reading below: `kubectl apply -f <(curl …)` reads a file.)
  if (
    args.some((a) =>
      substitutes(a) && spend(walk, a.length) && unreadableWord(a) === "decoded-script"
    )
  ) {
    const hit = unreadableHit(walk, "decoded-script");
    if (hit) return hit;
  }
  const code = (dialect: Dialect, text: string): boolean =>
    codeHit(dialect, text, deeper(walk), []) !== null;
  const disarmed = !walk.crude && dryRunOrHelp(args);
  const active = candidates.filter(({ rule, dryRunsAndHelp }) =>
    !(dryRunsAndHelp && disarmed) && namesCommand(rule.commands, name) &&
    (walk.crude || !asksForHelp(rule, args))
  );
  for (const { pack, rule } of active) {
    if (ruleMatches(rule, args, stdin, code)) {
      return { pack, rule: rule.id, destroys: rule.destroys };
    }
  }
  // An argument only known at run time may be the option that makes it destructive.
  if (!args.some(mayBeAnyOption) || (walk.crude ?? false)) return null;
  for (const { pack, rule } of active) {
    if (!spend(walk, args.length + 1)) return null;
    if (worstCaseMatches(rule, args, stdin, code)) {
      return { pack, rule: rule.id, destroys: rule.destroys };
    }
  }
  return null;
}

/** Whether the program `name` run with `args` (and `stdin` fed to it) is destructive. */
function programHit(
  name: string,
  args: readonly string[],
  stdin: readonly string[],
  walk: Walk,
): Verdict {
  if (COMMAND_RUNNERS.has(name) && walk.depth < MAX_WRAPPER_DEPTH) {
    const inner = runnerHit(args, stdin, walk);
    if (inner) return inner;
  }
  if (name === "git") return part("git").gitVerdict(args, stdin, walk, ENGINE);
  // A command an option names, or a program's own shell escape, runs as a command line.
  for (const command of [...optionCommands(name, args), ...escapedCommands(name, args, stdin)]) {
    const hit = codeHit("bash", command, deeper(walk), []);
    if (hit) return hit;
  }
  if (STDIN_SCHEDULERS.has(name)) {
    const unreadable = stdinUnreadable(stdin);
    const hidden = unreadable === null ? null : unreadableHit(walk, unreadable);
    if (hidden) return hidden;
    for (const text of stdin) {
      const hit = scriptHit("bash", text, deeper(walk), []);
      if (hit) return hit;
    }
  }
  // Keys typed into a session run there as a command line once a line ends.
  const typed = typedKeys(name, args);
  if (typed !== null) {
    const hit = codeHit("bash", typed, deeper(walk), []);
    if (hit) return hit;
  }
  if (name === "alias") {
    // A destructive alias is a destructive command waiting for its name.
    for (const a of args) {
      const hit = a.includes("=")
        ? codeHit("bash", a.slice(a.indexOf("=") + 1), deeper(walk), [])
        : null;
      if (hit) return hit;
    }
    return null;
  }
  if ((name === "source" || name === ".") && STDIN_PATHS.has(args[0] ?? "")) {
    for (const text of stdin) {
      const hit = codeHit("bash", text, deeper(walk), []);
      if (hit) return hit;
    }
    return null;
  }
  const ruled = rulesHit(name, args, stdin, walk);
  // Programs the rules or the tables model are read as they say; a crude
  // reading already tries every word.
  const modelled = ruled !== null || PLAIN_COMMANDS.has(name) || COMMAND_RUNNERS.has(name) ||
    scanWorthy(name, walk) || namedByPack(name);
  if (modelled || walk.crude || walk.guessed || walk.depth >= MAX_WRAPPER_DEPTH) return ruled;
  return guessedRunnerHit(args, stdin, walk);
}

// ---------------------------------------------------------------------------
// Command words known only at run time.

/** Parameter expansions that may expand to nothing. */
const SIMPLE_EXPANSION = /\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|\$[@*#?$!0-9-]/g;

/**
 * A command whose command word is only known at run time (`$(echo rm) -rf x`,
 * `` `which rm` -rf x ``, `${RM:-rm} -rf x`): the source of that word is cut
 * into tokens and scanned together with the arguments, so a destructive
 * form spelled inside it is found.
 */
function dynamicHit(words: readonly string[], stdin: readonly string[], walk: Walk): Verdict {
  // A program named by decoded text (`$(echo cm0g… | base64 -d)`) cannot be read.
  const unreadable = spend(walk, words[0].length) ? unreadableWord(words[0]) : null;
  if (unreadable !== null) {
    const hit = unreadableHit(walk, unreadable);
    if (hit) return hit;
  }
  const cut = (text: string): string[] =>
    text.split(/[^A-Za-z0-9_./+=-]+/).filter((t) => t !== "" && t !== "-");
  const rest = words.slice(1);
  // The program is unknown, so it may be a shell (`$SHELL -c '…'`, `… | $SHELL`):
  // an argument that reads as a script, and what it reads on stdin, are checked as scripts.
  for (const arg of rest) {
    const script = /\s/.test(arg) ? codeHit("bash", arg, deeper(walk), []) : null;
    if (script) return script;
  }
  for (const text of stdin) {
    const script = scriptHit("bash", text, deeper(walk), []);
    if (script) return script;
  }
  // Also read the word with its simple expansions removed: `r$@m` runs `rm`.
  const spelled = tokensVerdict([...cut(words[0]), ...rest], walk, ENGINE) ??
    tokensVerdict([...cut(words[0].replace(SIMPLE_EXPANSION, "")), ...rest], walk, ENGINE);
  if (spelled) return spelled;
  // A program named by a command's output (`$(printf '\x72\x6d') -rf x`) or by a
  // variable the line never sets (`$x reset --hard`) could be any: arguments that
  // only make sense as a forced recursive `rm` or a destructive git subcommand count.
  const scan = scanArgs(rest);
  const forcedRecursive = (hasShort(scan, "rR") || hasLong(scan, "recursive")) &&
    (hasShort(scan, "f") || hasLong(scan, "force"));
  if (forcedRecursive) return coreHit("rm-recursive");
  // Bare words (`$MAKE clean`) make sense to many programs; git's options do not.
  return rest.some((a) => a.startsWith("-"))
    ? part("git").gitVerdict(rest, [], walk, ENGINE)
    : null;
}

/** Candidates matched by recent glob command words, per rule index: a memo of a pure function. */
const GLOB_MEMO = new WeakMap<RuleIndex, Map<string, readonly string[]>>();
const GLOB_MEMO_SIZE = 64;

/**
 * The candidate programs a glob command word may name: the programs of the
 * active rules and the wrappers that can run them (`/???/r?` may be
 * `/bin/rm`). A malformed pattern such as `[` is literal to bash and names
 * none; one too long to judge may name any.
 */
function globCandidates(word: string, rules: RuleIndex): readonly string[] {
  const base = baseName(word);
  const memo = GLOB_MEMO.get(rules) ?? new Map<string, readonly string[]>();
  GLOB_MEMO.set(rules, memo);
  const known = memo.get(base);
  if (known !== undefined) return known;
  const all = [
    ...rules.byName.keys(),
    ...rules.pending.keys(),
    ...SCRIPT_READERS,
    ...GLOB_WRAPPERS,
  ];
  const { compileGlob, matchGlob, GLOB_MAX_PATTERN } = part("glob");
  const glob = compileGlob(base, { braces: false, foldCase: true });
  const names = glob === null
    ? (base.length > GLOB_MAX_PATTERN ? all : [])
    : all.filter((n) => matchGlob(glob, n) !== "no-match");
  if (memo.size >= GLOB_MEMO_SIZE) memo.clear();
  memo.set(base, names);
  return names;
}

/**
 * A command word with glob characters may expand to any program it
 * matches: the command is checked once per checked program or wrapper name
 * the pattern's last path component can match.
 */
function globHit(words: readonly string[], stdin: readonly string[], walk: Walk): Verdict {
  const raw = words.join(" ");
  for (const name of globCandidates(words[0], walk.rules)) {
    if (!afford(walk, raw.length)) return rawVerdict(raw, walk, ENGINE);
    const u = unwrapCommand([name, ...words.slice(1)], walk.depth + 1);
    const hit = unwrappedHit(u, stdin, deeper(walk), raw);
    if (hit) return hit;
  }
  return null;
}

/** Checks what `unwrapCommand` found: commands, scripts, a shell reading stdin, opacity. */
function unwrappedHit(
  u: Unwrapped,
  stdin: readonly string[],
  walk: Walk,
  raw: string,
): Verdict {
  for (const c of u.commands) {
    if (c.words.length === 0) continue;
    const fromStdin = c.stdinAsArgs
      ? stdin.flatMap((t) => t.split(/\s+/)).filter((t) => t !== "")
      : [];
    const args = [...c.words.slice(1), ...fromStdin];
    // Words from stdin may complete a wrapper (`echo rm -rf x | xargs env`): read it again.
    if (fromStdin.length > 0 && walk.depth < MAX_WRAPPER_DEPTH && afford(walk, raw.length)) {
      const again = unwrappedHit(
        unwrapCommand([c.words[0], ...args], walk.depth + 1),
        [],
        deeper(walk),
        raw,
      );
      if (again) return again;
    }
    const hit = (/[$`]/.test(c.words[0]) ? dynamicHit([c.words[0], ...args], stdin, walk) : null) ??
      (/[*?[]/.test(c.words[0]) && walk.depth < MAX_WRAPPER_DEPTH
        ? globHit([c.words[0], ...args], stdin, walk)
        : null) ??
      programHit(programName(c.words[0]), args, stdin, walk);
    if (hit) return hit;
  }
  const assigned = u.assignments ? assignmentsHit(u.assignments, walk, ENGINE) : null;
  if (assigned) return assigned;
  for (const t of u.templates) {
    const hit = templateHit(t, stdin, walk, raw);
    if (hit) return hit;
  }
  for (const s of u.scripts) {
    const hit = s.evaluated && s.dialect === "powershell"
      ? evaluatedHit(s.text, { ...walk, depth: s.depth }, stdin)
      : scriptHit(s.dialect, s.text, { ...walk, depth: s.depth }, stdin);
    if (hit) return hit;
  }
  if (u.stdinShell !== null) {
    // A shell behind a runner (`curl … | docker exec -i c sh`) reads what cannot be read.
    const unreadable = stdinUnreadable(stdin);
    const hidden = unreadable === null ? null : unreadableHit(walk, unreadable);
    if (hidden) return hidden;
    for (const text of stdin) {
      const hit = scriptHit(u.stdinShell, text, deeper(walk), []);
      if (hit) return hit;
    }
  }
  return u.opaque ? rawVerdict(raw, walk, ENGINE) : null;
}

/** Most input lines an `xargs -I` command is completed with. */
const MAX_TEMPLATE_LINES = 16;

/** An `xargs -I` command completed with each visible input line in place of its token. */
function templateHit(t: Template, stdin: readonly string[], walk: Walk, raw: string): Verdict {
  const lines = stdin.flatMap((text) => text.split("\n")).map((l) => l.trim()).filter(Boolean);
  for (const line of lines.slice(0, MAX_TEMPLATE_LINES)) {
    if (walk.depth >= MAX_WRAPPER_DEPTH || !afford(walk, raw.length + line.length)) {
      return rawVerdict(`${raw} ${line}`, walk, ENGINE);
    }
    const words = t.words.map((w) => w.split(t.token).join(line));
    const hit = unwrappedHit(unwrapCommand(words, walk.depth + 1), [], deeper(walk), raw);
    if (hit) return hit;
  }
  return null;
}

/**
 * A script whose whole text is variables the line never sets (`bash -c
 * "$x"`, `eval $CMD`, `echo "$x" | sh`): what it runs is decided outside
 * the command, so it is read as able to do anything.
 */
const HIDDEN_SCRIPT =
  /^\s*(?:"?\$(?:[A-Za-z_][A-Za-z0-9_]*|[@*0-9]|\{[!#]?(?:[A-Za-z_][A-Za-z0-9_]*|[@*0-9])(?:\[[^\]]*\])?\})"?\s*)+$/;

/** A script handed to a shell or `eval`: hidden, or read like any code. */
function scriptHit(
  dialect: Dialect,
  text: string,
  walk: Walk,
  stdin: readonly string[],
): Verdict {
  const hidden = dialect === "bash"
    ? HIDDEN_SCRIPT
    : dialect === "powershell"
    ? part("powershell").PS_HIDDEN
    : null;
  if (hidden?.test(text)) return coreHit("hidden-script");
  return codeHit(dialect, text, walk, stdin);
}

/**
 * What `Invoke-Expression` runs: the value of its argument or of the
 * pipeline feeding it. A web request fetches it (`iex (irm …)`, `irm … |
 * iex`); otherwise it is read like any script.
 */
function evaluatedHit(text: string, walk: Walk, stdin: readonly string[]): Verdict {
  const fetched = part("powershell").fetchesText(text)
    ? unreadableHit(walk, "fetched-script")
    : null;
  return fetched ?? scriptHit("powershell", text, walk, stdin);
}

// ---------------------------------------------------------------------------
// Dispatch and the API.

/**
 * Whether `text` written in `dialect` is destructive. Past the depth bound,
 * or once the call's budget of scripts or characters is spent, only the raw
 * token scan runs: it is linear and does not recurse into scripts.
 */
function codeHit(
  dialect: Dialect,
  text: string,
  walk: Walk,
  stdin: readonly string[],
): Verdict {
  if (walk.depth >= MAX_WRAPPER_DEPTH || !afford(walk, text.length)) {
    return rawVerdict(text, walk, ENGINE);
  }
  // A script's own commands are whole commands again, whoever runs it.
  if (walk.guessed) walk = { ...walk, guessed: false };
  if (dialect === "powershell") {
    return part("powershell").powerShellVerdict(text, walk, stdin, ENGINE);
  }
  if (dialect === "cmd") return part("cmd").cmdVerdict(text, walk, ENGINE);
  return bashVerdict(text, walk, stdin, ENGINE);
}

/** The engine as the dialect readers see it. */
const ENGINE: Engine = {
  code: codeHit,
  script: scriptHit,
  unwrapped: unwrappedHit,
  program: programHit,
  rules: rulesHit,
  raw: (text, walk) => rawVerdict(text, walk, ENGINE),
  core: coreHit,
};

/**
 * A fresh allowance for one call, drawing on the call's shared work budget
 * when one is given; what is left of it afterwards measures the work done.
 */
export function newDetectBudget(work: WorkBudget | null = null): DetectBudget {
  return { left: MAX_ANALYSES, chars: MAX_ANALYSED_CHARS, scanned: 0, work };
}

/** The rules of the packs active by default, indexed on first use (callers usually bring theirs). */
function defaultRules(): RuleIndex {
  return indexRules(PACK_MANIFEST.filter((p) => p.defaultOn));
}

/** The pack of a match of the operator's extra pattern. */
const EXTRA_HIT: DestructiveHit = {
  pack: "extra",
  rule: "GATEGUARD_BASH_EXTRA_DESTRUCTIVE",
  destroys: "matches the operator's extra destructive pattern",
};

/**
 * What `command` reaches, or `MissingPart` thrown where it needs a part not
 * loaded yet (find.ts loads it and calls again).
 */
export function readCommand(
  shell: ShellDialect,
  command: string,
  extra: readonly RegExp[],
  rules: RuleIndex,
  budget: DetectBudget,
): DestructiveHit | null {
  if (typeof command !== "string") return null;
  if (extraPatternHit(command, extra) !== null) return EXTRA_HIT;
  const walk: Walk = { depth: 0, budget, rules };
  return codeHit(shell, command, walk, []);
}

/**
 * The rule that finds `command`, written in `shell`, destructive: a rule of the
 * active packs (`rules`, default: the packs on by default), or a match of
 * one of the `extra` patterns against the raw text. Null for a command
 * that destroys nothing. Never throws; an internal error counts as
 * destructive, and so does a command that needs a part of the engine not
 * loaded yet (`findDestructive` loads what a command needs).
 */
export function destructiveHit(
  shell: ShellDialect,
  command: string,
  extra: readonly RegExp[],
  rules: RuleIndex = defaultRules(),
  budget: DetectBudget = newDetectBudget(),
): DestructiveHit | null {
  try {
    return readCommand(shell, command, extra, rules, budget);
  } catch {
    return coreHit("unreadable");
  }
}

/** The hit of the operator's extra patterns on the raw text of `command`, or null. */
export function extraPatternHit(command: string, extra: readonly RegExp[]): DestructiveHit | null {
  return extra.some((re) => re.test(command)) ? EXTRA_HIT : null;
}

/** Whether `command`, written in `shell`, is destructive under the packs active by default. */
export function isDestructive(
  shell: ShellDialect,
  command: string,
  extra: readonly RegExp[],
): boolean {
  return destructiveHit(shell, command, extra) !== null;
}

/** The variable that holds the extra destructive pattern. */
const EXTRA_VARIABLE = "GATEGUARD_BASH_EXTRA_DESTRUCTIVE";

/**
 * Compiles the operator's extra destructive pattern: the whole value is one
 * regular expression source (alternatives go in one `a|b`). Unset or blank
 * gives none; a source that does not compile gives none and a one-line
 * warning naming the variable.
 */
export function compileExtraPatterns(
  raw: string | undefined,
): { patterns: RegExp[]; warning: string | null } {
  if (raw === undefined || raw.trim() === "") return { patterns: [], warning: null };
  try {
    return { patterns: [new RegExp(raw)], warning: null };
  } catch {
    return {
      patterns: [],
      warning:
        `ignoring malformed ${EXTRA_VARIABLE} (not a valid regular expression); the built-in destructive checks still apply.`,
    };
  }
}
