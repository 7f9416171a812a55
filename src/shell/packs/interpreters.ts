/**
 * The interpreters pack: one-liners (`python -c`, `node -e`, `deno eval`,
 * `bun -e`, `perl -e`, `ruby -e`, `php -r`, awk programs) that delete a
 * tree through the language's own library, or shell out: the commands they
 * hand to a shell are read with the same detector. A script decoded on its
 * way into a shell or interpreter (`base64 -d`, `rev`, `tr`, …) or fetched
 * from the network (`curl … | sh`, `bash <(wget -qO- …)`) cannot be read
 * at all, so it counts as able to do anything: the engine finds such text
 * (`shell/destructive/unreadable.ts`) and reports it under this pack's two rules for it.
 *
 * @module
 */

import type { Pack, RuleInput } from "./pack.ts";
import { sqlDestructive } from "../sql/mod.ts";
import { STDIN_PATHS } from "../stdin_markers.ts";
import {
  crontabCommands,
  exShellCommand,
  makeCommands,
  makeTexts,
  sedCommands,
  sedScripts,
  vimCommands,
} from "../programs/mod.ts";

/**
 * Library calls that delete a directory tree. A call's arguments may hold
 * calls of their own (`rmSync(path.join(a, "b"), {recursive: true})`), so
 * the options are looked for up to the end of the statement, a bounded
 * stretch so the match stays linear.
 */
const TREE_DELETES: readonly RegExp[] = [
  /\brmtree\b/,
  /\bremove_tree\b/,
  /\b(rm|rmdir)(Sync)?\s*\([^;]{0,400}?recursive\s*:\s*(true|1|!0)/,
  /\bDeno\s*\.\s*remove(Sync)?\s*\([^;]{0,400}?recursive\s*:\s*true/,
  /\bFileUtils\s*(\.|::)\s*(rm_rf|rm_r|remove_dir|remove_entry(_secure)?|rmtree)\b/,
  /\bunlink\s*\(?\s*(glob\b|<)/,
  /\barray_map\s*\(\s*['"]unlink['"]/,
  // fs-extra and rimraf delete trees by default.
  /\b(removeSync|emptyDirSync|rimrafSync|rimraf)\s*\(/,
  /\bfs-extra\b[\s\S]{0,400}?\.\s*(remove|emptyDir)(Sync)?\s*\(/,
  /\brimraf['"]\s*\)\s*(\.\s*(sync|rimraf|rimrafSync|native|manual)\s*)?\(/,
  // A walk over a tree that unlinks what it finds (`rglob("*")` with `unlink()`, `os.walk` with `os.remove`).
  /\b(rglob|walk)\s*\([\s\S]{0,400}?\b(unlink|remove|rmdir|rmtree)\s*\(|\b(unlink|remove|rmdir)\s*\(\s*\)[\s\S]{0,200}?\brglob\s*\(/,
  // shelljs: `shell.rm('-rf', dir)`.
  /\.\s*rm\s*\(\s*['"]-\w*[rR]/,
  // R's unlink deletes directories only when told to recurse, as does Julia's rm.
  /\bunlink\s*\([^;]{0,400}?recursive\s*=\s*(TRUE|T)\b/,
  /\brm\s*\([^;]{0,400}?recursive\s*=\s*true\b/,
  // Other languages' tree deletes: Elixir, Tcl, Swift, Go, Rust, Kotlin, Groovy, .NET, Haskell,
  // Racket and Common Lisp (uiop), Apache Commons IO.
  /\bFile\s*\.\s*rm_rf!?\s*\(/,
  /\bfile\s+delete\s+-force\b/,
  /\bremoveItem\s*\(\s*at(Path)?\s*:/,
  /\bRemoveAll\s*\(/,
  /\bremove_dir_all\s*\(/,
  /\b(deleteRecursively|deleteDir|deleteDirectory|removeDirectoryRecursive)\s*\(/,
  /\bDirectory\s*\.\s*Delete\s*\([^;]{0,400}?,\s*true\b/,
  /\bdelete-directory(\/files|-tree)\b/,
];

/** Calls that hand a command to a shell or start a program. */
const SHELL_OUTS =
  /\bos\s*\.\s*(system|popen|exec\w*|spawn\w*)\b|\bsubprocess\b|\bchild_process\b|\b(execSync|spawnSync|execFileSync|shell_exec|passthru|proc_open|popen)\b|\b(exec|spawn|execFile|system)\s*\(|\b(system|exec)\s+(["'@$]|q[qxw]?\s*[{(\[])|\bexeca(Sync|Command|CommandSync)?\b|\bDeno\s*\.\s*(run|Command)\b|\bBun\s*\.\s*(spawn|spawnSync|\$)|\bOpen3\b|%x[{([]|\bqx\s*[{([]|`|\|\s*getline|\bprint\s[^;]*\|\s*"|\bdo\s+shell\s+script\b|\.\s*execute\s*\(\s*\)|\bos:cmd\s*\(|\bSystem\s*\.\s*(cmd|shell)\s*\(|\bProcessBuilder\b|\bclojure\.java\.shell\b|\(sh\s|\bexec\s+[A-Za-z./]|\bopen\s+["{]?\|/;

/**
 * String literals of a program, quotes removed and backslash escapes
 * undone; Ruby's `%x(…)` and Perl's `qx{…}`, `qq{…}`, `qw(…)` and `q{…}` count too.
 */
function literals(code: string): string[] {
  const out: string[] = [];
  for (
    const m of code.matchAll(
      /'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|`((?:[^`\\]|\\.)*)`|(?:%x|\bq[qxw]?)\s*(?:\(([^)]*)\)|\{([^}]*)\}|\[([^\]]*)\])/g,
    )
  ) {
    out.push((m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? m[6]).replace(/\\(.)/g, "$1"));
  }
  return out;
}

/**
 * Calls that hand a statement to a database (`sqlite3`/`psycopg` cursors,
 * Node drivers, ORMs' raw queries): their string literals are read as SQL.
 */
const SQL_CALLS =
  /\b(execute|executescript|executemany|exec|query|raw|run|prepare|sql|unsafe|\$executeRawUnsafe|\$queryRawUnsafe|executeRaw|knex\.raw)\s*\(|\bsql\s*`/;

/**
 * ORM calls that delete or blank every row of a model in a framework shell
 * one-liner (`User.objects.all().delete()`, `User.delete_all`,
 * `User::truncate()`).
 */
const MASS_DELETES =
  /\.\s*objects\s*\.\s*(all\s*\(\s*\)\s*\.\s*)?(delete|update)\s*\(|\.\s*(delete_all|destroy_all|update_all)\b|::\s*truncate\s*\(|::\s*query\s*\(\s*\)\s*->\s*delete\s*\(|\bdeleteMany\s*\(\s*(\{\s*\})?\s*\)/;

/** Most literals a joined reading may start at, so the work stays linear in practice. */
const MAX_JOIN_STARTS = 16;

/** Calls that run text as the language's own code. */
const EVALS = /\b(eval|exec|compile|instance_eval|class_eval|module_eval)\s*\(|\bFunction\s*\(/;

/**
 * What a program reads at run time: its arguments (`sys.argv`,
 * `process.argv`, `@ARGV`, `ARGV`, awk's fields) or its input (`input()`,
 * `sys.stdin`, `<STDIN>`, `gets`, awk's records).
 */
const RUNTIME_DATA =
  /\bsys\s*\.\s*(argv|stdin)\b|\b(raw_)?input\s*\(|\b(process|Deno|Bun)\s*\.\s*(argv|args|stdin)\b|@ARGV|\$ARGV\b|\bARGV\b|\bARGF\b|<STDIN>|<>|\$stdin\b|\bSTDIN\b|\bgets\b|\$argv\b|\bfgets\s*\(|php:\/\/stdin|\$[0-9]\b|\bgetline\b|\breadline\b/;

/**
 * Whether a one-liner destroys data: a library call that deletes a tree,
 * or a shell-out whose command, read from the program's string literals one
 * by one and joined from each one on (`["rm", "-rf", "x"]`), is destructive.
 * A program that shells out or evaluates what it reads at run time
 * (`os.system(sys.argv[1])`, `eval(process.argv[1])`, `exec(input())`,
 * `system @ARGV`, awk's `system($0)`) runs the words and input the command
 * hands it: those are read as a shell command and as the language's code.
 */
export function codeDestroys(code: string, input: RuleInput, nested = false): boolean {
  if (TREE_DELETES.some((re) => re.test(code))) return true;
  if (MASS_DELETES.test(code)) return true;
  if (SQL_CALLS.test(code) && literals(code).some(sqlDestructive)) return true;
  const shellsOut = SHELL_OUTS.test(code);
  if (!nested && (shellsOut || EVALS.test(code)) && RUNTIME_DATA.test(code)) {
    const after = input.args.slice(input.args.indexOf(code) + 1);
    const data = [...after, after.join(" "), ...input.stdin].filter((t) => t !== code);
    if (data.some((t) => input.code("bash", t) || codeDestroys(t, input, true))) return true;
  }
  if (!shellsOut) return false;
  const texts = literals(code);
  if (texts.some((t) => input.code("bash", t))) return true;
  // An argument vector (`spawnSync('rm', ['-rf', 'x'])`) may follow other literals
  // such as the module name: read the literals joined from each one on.
  for (let i = 0; i < Math.min(texts.length, MAX_JOIN_STARTS); i++) {
    if (input.code("bash", texts.slice(i).join(" "))) return true;
  }
  return false;
}

/**
 * The code an option cluster carries: the value of the first letter of
 * `codeLetters` (rest of the cluster, else the next word), skipping the
 * letters of `attached`, whose value can only be the rest of the cluster
 * (`perl -i.bak -pe …`).
 */
function clusterCode(args: readonly string[], codeLetters: string, attached = ""): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith("-") || a.startsWith("--") || a.length < 2) continue;
    for (let k = 1; k < a.length; k++) {
      if (codeLetters.includes(a[k])) {
        const rest = a.slice(k + 1);
        out.push(rest !== "" ? rest : args[++i] ?? "");
        break;
      }
      if (attached.includes(a[k])) break;
    }
  }
  return out;
}

/** The values of long options named in `names` (`--eval=code` or `--eval code`). */
function longCode(args: readonly string[], names: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    for (const name of names) {
      if (a === `--${name}`) out.push(args[i + 1] ?? "");
      else if (a.startsWith(`--${name}=`)) out.push(a.slice(name.length + 3));
    }
  }
  return out;
}

/** The first operand of an awk command line: its program, unless `-f` names a file. */
function awkProgram(args: readonly string[]): string[] {
  const out = longCode(args, ["source"]);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "-e") out.push(args[++i] ?? "");
    else if (a === "-f" || a === "--file") return out;
    else if (a === "-F" || a === "-v" || a === "-i" || a === "-l") i++;
    else if (a === "--") return [...out, args[i + 1] ?? ""];
    else if (!a.startsWith("-")) return [...out, a];
  }
  return out;
}

/**
 * Whether an interpreter run with `args` reads its program from stdin: no
 * code option among `codeLetters` or `codeLongs`, and no script operand, or
 * `-` in its place (`python3 - <<'EOF'`, `echo … | node`). The letters of
 * `valued` take the next word as their value when nothing follows them in
 * the cluster (`python3 -W ignore -`), and `stops` end the options with a
 * program that is not code (`python3 -m json.tool`).
 */
function readsProgramFromStdin(
  args: readonly string[],
  shape: StdinShape,
): boolean {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "-" || STDIN_PATHS.has(a)) return true;
    if (a === "--") return args[i + 1] === undefined || STDIN_PATHS.has(args[i + 1]);
    if (a.startsWith("--")) {
      const name = a.slice(2).split("=")[0];
      if (shape.codeLongs.includes(name) || shape.stopLongs.includes(name)) return false;
      if (!a.includes("=") && shape.valuedLongs.includes(name)) i++;
      continue;
    }
    if (!a.startsWith("-")) return false;
    for (let k = 1; k < a.length; k++) {
      const c = a[k];
      if (shape.code.includes(c) || shape.stops.includes(c)) return false;
      if (shape.attached.includes(c)) break;
      if (shape.valued.includes(c)) {
        if (k === a.length - 1) i++;
        break;
      }
    }
  }
  return true;
}

/** How an interpreter's options say where its program comes from. */
interface StdinShape {
  /** Letters whose value is the program. */
  readonly code: string;
  /** Letters whose value is only the rest of their cluster. */
  readonly attached: string;
  /** Letters whose value is the next word when nothing follows them in the cluster. */
  readonly valued: string;
  /** Letters that run something other than a program text (a module). */
  readonly stops: string;
  readonly codeLongs: readonly string[];
  readonly valuedLongs: readonly string[];
  readonly stopLongs: readonly string[];
}

/**
 * A rule over the code texts `code` extracts from the arguments, and over
 * the program read from stdin when the arguments say it is read there.
 */
function oneLiner(
  code: (args: readonly string[]) => string[],
  shape: StdinShape | null = null,
): (input: RuleInput) => boolean {
  return (input) => {
    const stdin = shape !== null && input.stdin.length > 0 &&
        readsProgramFromStdin(input.args, shape)
      ? input.stdin
      : [];
    return [...code(input.args), ...stdin].some((text) => codeDestroys(text, input));
  };
}

/** The shapes of the interpreters that read a program from stdin. */
const PYTHON_SHAPE: StdinShape = {
  code: "c",
  attached: "",
  valued: "WXQ",
  stops: "m",
  codeLongs: [],
  valuedLongs: ["check-hash-based-pycs"],
  stopLongs: [],
};

const NODE_SHAPE: StdinShape = {
  code: "ep",
  attached: "",
  valued: "rC",
  stops: "",
  codeLongs: ["eval", "print"],
  valuedLongs: ["require", "import", "loader", "experimental-loader", "conditions", "tsconfig"],
  stopLongs: ["test", "version", "help"],
};

const PERL_RUBY_SHAPE: StdinShape = {
  code: "eE",
  attached: "iIlx0CdDmMF",
  valued: "rS",
  stops: "",
  codeLongs: [],
  valuedLongs: [],
  stopLongs: ["version", "help"],
};

const PHP_LUA_R_SHAPE: StdinShape = {
  code: "re",
  attached: "",
  valued: "dcz",
  stops: "",
  codeLongs: [],
  valuedLongs: [],
  stopLongs: ["version", "help"],
};

/**
 * Whether a sed command line runs a destructive command: an `e` command
 * of its script, or any script that runs its pattern space or cannot be
 * taken apart (`sedCommands`). A script read from stdin is read too.
 */
function sedDestroys(input: RuleInput): boolean {
  const { scripts, files } = sedScripts(input.args);
  const fromStdin = files.some((f) => STDIN_PATHS.has(f));
  for (const script of [...scripts, ...(fromStdin ? input.stdin : [])]) {
    const commands = sedCommands(script);
    if (commands === null || commands.some((c) => input.code("bash", c))) return true;
  }
  return false;
}

/** How deep `execute` strings are followed in a vim command. */
const MAX_EX_DEPTH = 2;

/**
 * Whether one ex command hands a destructive command to a shell: `!cmd`
 * (with a range, `:silent`, `r !`, `w !`), `:terminal cmd`, the strings of
 * `:execute`, or a call into a language that shells out (`system()`,
 * `:lua os.execute()`). Commands joined by `|` are read one by one too.
 */
function exDestroys(command: string, input: RuleInput, depth = 0): boolean {
  for (const part of new Set([command, ...command.split("|")])) {
    const shelled = exShellCommand(part);
    if (shelled !== null && input.code("bash", shelled)) return true;
    if (
      depth < MAX_EX_DEPTH && /^[\s:]*exe(?:c(?:ute)?)?\b/.test(part) &&
      literals(part).some((text) => exDestroys(text, input, depth + 1))
    ) {
      return true;
    }
    if (codeDestroys(part, input)) return true;
  }
  return false;
}

/** Whether crontab installs a table read from stdin that schedules a destructive command. */
function crontabDestroys(input: RuleInput): boolean {
  const operands = input.args.filter((a) => !a.startsWith("-") || a === "-");
  const fromStdin = operands.length === 0
    ? !input.args.some((a) => /^-\w*[lre]/.test(a))
    : STDIN_PATHS.has(operands[operands.length - 1]);
  return fromStdin &&
    input.stdin.some((text) => crontabCommands(text).some((c) => input.code("bash", c)));
}

const DESTROYS = "runs code that deletes a tree or hands a destructive command to a shell";

/**
 * Languages with no rule of their own. The options whose value is the
 * program differ little between them (`julia -e`, `osascript -e`,
 * `erl -eval`, `sbcl --eval`, `guile -c`), so any of them counts for each;
 * with none of them and no script named, the program is read from stdin.
 */
const OTHER_LANGUAGES: readonly string[] = [
  "julia",
  "tclsh",
  "wish",
  "osascript",
  "groovy",
  "elixir",
  "erl",
  "swift",
  "kotlin",
  "scala",
  "clojure",
  "clj",
  "bb",
  "racket",
  "guile",
  "sbcl",
  "ghc",
  "runghc",
  "jshell",
];

/** The options of `OTHER_LANGUAGES` whose value is the program. */
const OTHER_CODE_OPTIONS: readonly string[] = ["-e", "-E", "-c", "-eval", "--eval", "--print"];

/**
 * Whether a program of `OTHER_LANGUAGES` destroys data, read like the other
 * one-liners; a program that starts processes (Tcl's `exec rm -rf x`) is
 * also read as the shell command its words spell.
 */
function otherLanguageCode(input: RuleInput): boolean {
  const codes: string[] = [];
  let operand = false;
  for (let i = 0; i < input.args.length; i++) {
    const a = input.args[i];
    const eq = OTHER_CODE_OPTIONS.find((o) => o.startsWith("--") && a.startsWith(`${o}=`));
    if (OTHER_CODE_OPTIONS.includes(a)) codes.push(input.args[++i] ?? "");
    else if (eq !== undefined) codes.push(a.slice(eq.length + 1));
    else if (!a.startsWith("-")) operand = true;
  }
  // With no code option and no script named, the program comes on stdin (`-` names stdin).
  const programs = codes.length === 0 && !operand ? input.stdin : codes;
  return programs.some((code) =>
    codeDestroys(code, input) || (SHELL_OUTS.test(code) && input.code("bash", code))
  );
}

const DECODED_DESTROYS =
  "runs a script or command words decoded on the way in, which cannot be read first";

const FETCHED_DESTROYS =
  "runs a script fetched from the network, which cannot be read before it runs";

/** The interpreters pack. */
export const INTERPRETERS_PACK: Pack = {
  id: "interpreters",
  summary: "python -c / node -e / perl -e … that delete trees or shell out destructively",
  defaultOn: true,
  rules: [
    {
      id: "python-code",
      commands: ["python*", "pypy*", "py"],
      when: [{ test: oneLiner((args) => clusterCode(args, "c", "WXQm"), PYTHON_SHAPE) }],
      destroys: DESTROYS,
    },
    {
      id: "node-code",
      commands: ["node", "nodejs", "bun", "tsx", "ts-node", "ts-node-esm"],
      when: [{
        test: oneLiner((args) => [
          ...clusterCode(args, "ep", "r"),
          ...longCode(args, ["eval", "print"]),
        ], NODE_SHAPE),
      }],
      destroys: DESTROYS,
    },
    {
      id: "deno-eval",
      commands: ["deno"],
      path: ["eval"],
      when: [{ test: (input) => input.scan.operands.some((code) => codeDestroys(code, input)) }],
      destroys: DESTROYS,
    },
    {
      // `deno run -` and `bun run -` run the program they read on stdin.
      id: "deno-run-stdin",
      commands: ["deno", "bun"],
      path: ["run"],
      when: [{
        test: (input) =>
          STDIN_PATHS.has(input.scan.operands[0] ?? "") &&
          input.stdin.some((code) => codeDestroys(code, input)),
      }],
      destroys: DESTROYS,
    },
    {
      id: "perl-ruby-code",
      commands: ["perl", "ruby"],
      when: [{
        test: oneLiner((args) => clusterCode(args, "eE", "iIlx0CdDmMrF"), PERL_RUBY_SHAPE),
      }],
      destroys: DESTROYS,
    },
    {
      id: "php-code",
      commands: ["php"],
      // `php artisan tinker --execute=…` runs its code in the application.
      when: [{
        test: oneLiner(
          (args) => [...clusterCode(args, "r"), ...longCode(args, ["execute"])],
          PHP_LUA_R_SHAPE,
        ),
      }],
      destroys: DESTROYS,
    },
    {
      id: "rails-runner-code",
      commands: ["rails"],
      path: [/^(runner|r)$/],
      when: [{ test: (input) => input.scan.operands.some((code) => codeDestroys(code, input)) }],
      destroys: DESTROYS,
    },
    {
      id: "lua-r-code",
      commands: ["lua", "rscript", "r"],
      when: [{ test: oneLiner((args) => clusterCode(args, "e"), PHP_LUA_R_SHAPE) }],
      destroys: DESTROYS,
    },
    {
      id: "other-language-code",
      commands: OTHER_LANGUAGES,
      when: [{ test: otherLanguageCode }],
      destroys: DESTROYS,
    },
    {
      id: "awk-system",
      commands: ["awk", "gawk", "mawk", "nawk", "busybox-awk"],
      when: [{ test: oneLiner(awkProgram) }],
      destroys: DESTROYS,
    },
    {
      // GNU sed's `e` runs a command, or its pattern space: text the line does not show.
      id: "sed-execute",
      commands: ["sed", "gsed"],
      when: [{ test: sedDestroys }],
      destroys: "runs shell commands from its script (GNU sed's e command or flag), or text it " +
        "reads, which cannot be read first",
    },
    {
      id: "vim-command",
      commands: [
        "vim",
        "nvim",
        "vi",
        "view",
        "ex",
        "gvim",
        "gview",
        "vimdiff",
        "nvimdiff",
        "mvim",
        "evim",
      ],
      when: [{ test: (input) => vimCommands(input.args).some((c) => exDestroys(c, input)) }],
      destroys: DESTROYS,
    },
    {
      // `--eval` text and a makefile fed on stdin: their recipes run when make builds.
      id: "make-recipe",
      commands: ["make", "gmake", "remake"],
      when: [{
        test: (input) =>
          makeTexts(input.args, input.stdin).some((text) =>
            makeCommands(text).some((c) => input.code("bash", c))
          ),
      }],
      destroys: DESTROYS,
    },
    {
      // The jobs of a table fed on stdin run later, with no gate before them.
      id: "crontab-jobs",
      commands: ["crontab"],
      when: [{ test: crontabDestroys }],
      destroys: "schedules a command that deletes a tree or hands a destructive command to a " +
        "shell, to run later with no gate before it",
    },
    {
      id: "decoded-script",
      commands: [],
      destroys: DECODED_DESTROYS,
    },
    {
      id: "fetched-script",
      commands: [],
      destroys: FETCHED_DESTROYS,
    },
  ],
};
