import { assert, assertEquals } from "../helpers/assert.ts";
import { WorkBudget } from "../../src/platform/budget.ts";
import { GLOB_PARSE_UNITS } from "../../src/glob/glob.ts";
import { MemoryFs, ROOT } from "../session_logs/builder.ts";
import { type Call, credited, creditOf, missed, type Outcome, target } from "./harness.ts";

const SRC = `${ROOT}/src`;
const tokenizer = target(`${SRC}/tokenizer.js`);
const bash = (command: string, extra: Partial<Call> = {}): Call => ({
  name: "Bash",
  input: { command, description: "search" },
  ...extra,
});

/** The outcome code of one Bash command for `t`: "credit", a miss code, or null. */
/**
 * Most work units a search command may cost per character of its text; the
 * commands below measure well under it, a backtracking glob would not.
 */
const WORK_PER_CHAR = 20;

function code(
  command: string,
  t = tokenizer,
  fs?: MemoryFs,
  budget?: WorkBudget,
): string | null {
  const res: Outcome = creditOf([bash(command)], t, { fs, budget });
  return res.credited ? "credit" : res.miss?.code ?? null;
}

/** Asserts the outcome code of each command. */
function expectCodes(commands: readonly string[], expected: string | null): void {
  for (const command of commands) assertEquals(code(command), expected, command);
}

Deno.test("[prior-search-credit] shell segments led by each search command credit", () => {
  const commands = [
    "rg -n tokenizer src tests",
    "grep -rn tokenizer src",
    "egrep -R 'tokenizer|lexer' .",
    "fgrep -r tokenizer .",
    "ugrep -r tokenizer src",
    "ug -R tokenizer",
    "git grep -n tokenizer",
    "git ls-files '*tokenizer*'",
    "find . -name '*tokenizer*'",
    "bfs src -name '*tokenizer*'",
    "fd tokenizer src",
    "ls src/*tokenizer*",
    "tree -P '*tokenizer*' src",
  ];
  for (const command of commands) assertEquals(code(command), "credit", command);
  assertEquals(
    creditOf([bash("rg tokenizer src")], tokenizer),
    credited("Bash", "rg tokenizer src"),
  );
});

Deno.test("[test-stems] rg tokenizer src tests credits tests/tokenizer.test.js", () => {
  const test = target(`${ROOT}/tests/tokenizer.test.js`, { cls: "test" });
  assertEquals(code("rg tokenizer src tests", test), "credit");
  assertEquals(code("rg tokenizer src", test), "out-of-scope");
});

Deno.test("[read-is-not-evidence] a non-search segment naming the target is not a search", () => {
  assertEquals(
    creditOf([bash("sed -n 1,20p src/tokenizer.js")], tokenizer),
    missed("not-a-search", "Bash", "sed -n 1,20p src/tokenizer.js"),
  );
  assertEquals(code("cat src/tokenizer.js | head"), "not-a-search");
  assertEquals(code("npm test"), null);
});

Deno.test("[stdin-is-not-a-tree-search] piped, redirected and operand-less non-recursive searches read stdin", () => {
  assertEquals(code("grep tokenizer"), "stdin-only");
  assertEquals(code("ugrep tokenizer"), "stdin-only");
  assertEquals(code("ls | grep tokenizer"), "stdin-only");
  assertEquals(code("git ls-files | grep tokenizer"), "stdin-only");
  assertEquals(code("cat list | rg tokenizer"), "stdin-only");
  assertEquals(code("false || rg tokenizer"), "stdin-only");
  assertEquals(code("rg tokenizer < files.txt"), "stdin-only");
  assertEquals(code("rg tokenizer < files.txt src"), "stdin-only");
  assertEquals(code("rg 'a<b' -e tokenizer src"), "stdin-only");
  // An operand before the redirection is searched; a pipe into a search with operands is fine.
  assertEquals(code("rg tokenizer src < /dev/null"), "credit");
  assertEquals(code("echo | rg tokenizer src"), "credit");
  assertEquals(code("true && rg tokenizer"), "credit");
});

Deno.test("[ambiguous-shell-is-not-evidence] substitutions, heredocs and long commands give no credit and no miss", () => {
  for (
    const command of [
      "rg tokenizer $(pwd)/src",
      "rg tokenizer `pwd`/src",
      "diff <(rg tokenizer src) <(rg lexer src)",
      "rg tokenizer src > >(tee out)",
      "rg -f - src <<EOF\ntokenizer\nEOF",
      "rg tokenizer src 'unclosed",
      "rg tokenizer src #" + "x".repeat(8192),
    ]
  ) {
    assertEquals(creditOf([bash(command)], tokenizer), missed(null), command.slice(0, 40));
  }
});

Deno.test("[ambiguous-shell-is-not-evidence] a command just under 8192 characters is still read, in counted work", () => {
  const command = "rg tokenizer src " + "-g '!*.x' ".repeat(800);
  assert(command.length <= 8192);
  const comment = "rg tokenizer src # " + "x".repeat(8150);
  for (const [text, expected] of [[command, "excluded"], [comment, "credit"]]) {
    const budget = new WorkBudget();
    assertEquals(code(text, tokenizer, undefined, budget), expected);
    assertEquals(budget.exhausted(), null);
    assert(budget.spent <= WORK_PER_CHAR * text.length, `${budget.spent} units`);
  }
});

Deno.test("[search-scope] shell operands scope the search; the target must lie inside one of them", () => {
  assertEquals(code("rg tokenizer docs"), "out-of-scope");
  assertEquals(code("grep -rn tokenizer /usr/share/doc"), "out-of-scope");
  assertEquals(code("rg tokenizer docs src"), "credit");
  assertEquals(code(`rg tokenizer ${ROOT}`), "credit");
  assertEquals(code("rg tokenizer ./src/../src"), "credit");
  assertEquals(code("rg tokenizer $SRC"), "out-of-scope");
  assertEquals(code("rg tokenizer ~/proj/src"), "out-of-scope");
});

Deno.test("[search-scope] a segment whose operands all resolve to the target only reads it", () => {
  assertEquals(code("ls src/tokenizer.js"), "not-a-search");
  assertEquals(code("grep -n tokenizer src/tokenizer.js ./src/tokenizer.js"), "not-a-search");
  assertEquals(code("grep -n tokenizer src/tokenizer.js src/parser.js"), "credit");
});

Deno.test("[search-scope] searches confined to the target's own file name are lookups", () => {
  assertEquals(code("find src -name tokenizer.js"), "not-a-search");
  assertEquals(code("rg -g tokenizer.js import"), "not-a-search");
  assertEquals(code("rg import src/*/tokenizer.js"), "not-a-search");
  assertEquals(code("rg tokenizer src/**/tokenizer.js"), "not-a-search");
  assertEquals(code("find src -name 'tokenizer.*'"), "credit");
  // In disguise: braces and one-character classes can still spell only the target's name.
  assertEquals(code("rg import src/tokenizer.j[s]"), "not-a-search");
  assertEquals(code("find src -name 'tokenizer.[j]s'"), "not-a-search");
  assertEquals(code("rg -g '{tokenizer.js}' import"), "not-a-search");
  assertEquals(code("rg tokenizer src/*.[jt]s"), "credit");
});

Deno.test("[path-patterns] a glob operand admits the target when it matches it or a directory above it", () => {
  assertEquals(code("rg tokenizer src/*.js"), "credit");
  assertEquals(code("rg tokenizer s*"), "credit");
  assertEquals(code("rg tokenizer {src,lib}"), "credit");
  assertEquals(code("rg tokenizer lib/*.js"), "out-of-scope");
  assertEquals(code("rg tokenizer *.js"), "out-of-scope");
  // Quoted glob characters are literal to the shell.
  assertEquals(code("rg tokenizer 's*'"), "out-of-scope");
});

Deno.test("[path-patterns] a git pathspec's star also matches slashes; magic pathspecs are read", () => {
  assertEquals(code("git grep tokenizer -- '*.js'"), "credit");
  assertEquals(code("git grep tokenizer -- '*.py'"), "out-of-scope");
  assertEquals(code("git grep tokenizer -- ':(glob)*.js'"), "out-of-scope");
  assertEquals(code("git grep tokenizer -- ':(glob)**/*.js'"), "credit");
  assertEquals(code("git grep tokenizer -- ':(top)src'"), "out-of-scope");
  assertEquals(code("git ls-files src | rg tokenizer"), "stdin-only");
});

Deno.test("[flag-parsing] value flags are skipped with their value and clusters are read letter by letter", () => {
  assertEquals(code("grep -rne tokenizer src"), "credit");
  assertEquals(code("grep -rn -A 3 tokenizer src"), "credit");
  // With -e supplying the pattern, the first positional is a path.
  assertEquals(code("grep -r -e TODO tokenizer"), "out-of-scope");
  assertEquals(code("grep -r -e TODO src/tokenizer.js"), "not-a-search");
  assertEquals(code("grep -r --regexp=tokenizer src"), "credit");
  assertEquals(code("rg -e tokenizer -- src"), "credit");
  // fd's -e is an extension; its first positional is still the pattern.
  assertEquals(code("fd -e js tokenizer src"), "credit");
  assertEquals(code("fd -e py tokenizer"), "excluded");
  // rg's -r (replace) takes a value, so `src` is not swallowed as the pattern.
  assertEquals(code("rg -r X tokenizer src"), "credit");
  assertEquals(code("rg --files src | rg tokenizer"), "stdin-only");
  assertEquals(code("rg --files -g '*tokenizer*' src"), "credit");
  // GNU long options may be abbreviated.
  assertEquals(code("grep -r --exclude-d=src tokenizer ."), "excluded");
});

Deno.test("[search-filters] shell exclusions that cover the target block credit", () => {
  const blocked = [
    "rg -g '!tokenizer.js' tokenizer .",
    "rg --glob='!src/**' tokenizer",
    "rg --iglob '!*.JS' tokenizer",
    "grep -r --exclude='*.js' tokenizer .",
    "grep -r --exclude-dir=src tokenizer .",
    "ugrep -r -g '^*.js' tokenizer .",
    "ugrep -r -O '!js' tokenizer .",
    "fd -E src tokenizer",
    "ls -R -I src . | cat; ls -I '*.js' src/*tokenizer*",
    "tree -I 'src|dist' -P '*tokenizer*'",
    "git ls-files -x '*.js' '*tokenizer*'",
    "git grep tokenizer -- . ':(exclude)src'",
    "find . ! -name '*.js' -name '*tokenizer*'",
    "find . -not \\( -name '*.js' -o -name '*.ts' \\) -name '*tokenizer*'",
    "find . -name src -prune -o -name '*tokenizer*' -print",
    "find . \\( -name src -o -name lib \\) -prune -o -name '*tokenizer*'",
    "find . -not -regex '.*js' -name '*tokenizer*'",
    "rg -T js tokenizer",
    "rg --type-not js tokenizer",
    "rg -g '!tokenizer*' tokenizer",
  ];
  for (const command of blocked) assertEquals(code(command), "excluded", command);
  assertEquals(code("rg -g '!*.md' tokenizer ."), "credit");
  assertEquals(code("find . -name node_modules -prune -o -name '*tokenizer*' -print"), "credit");
  assertEquals(code("grep -r --exclude-dir=node_modules tokenizer ."), "credit");
});

Deno.test("[search-filters] exclusion values are never a stem source", () => {
  assertEquals(code("rg -g '!tokenizer.js' TODO ."), null);
  assertEquals(code("grep -r --exclude=tokenizer.js TODO ."), null);
  assertEquals(code("find . ! -name tokenizer.js -name '*.js'"), null);
});

Deno.test("[search-filters] filters the hook cannot read make the segment never credit", () => {
  for (
    const command of [
      "grep -r --exclude-from=ignore.txt tokenizer .",
      "rg --ignore-file .myignore tokenizer",
      "git ls-files -X ignore.txt '*tokenizer*'",
      "rg --type-add 'web:*.js' -t web tokenizer",
      "rg --type-clear js tokenizer",
      "rg -t nosuchtype tokenizer",
      "ugrep -r --include-dir=src tokenizer .",
      "rg " + Array.from({ length: 33 }, (_, i) => `-g '!*.x${i}'`).join(" ") + " tokenizer",
    ]
  ) {
    assertEquals(code(command), "excluded", command.slice(0, 50));
  }
});

Deno.test("[include-filters] shell include globs must match the target's file name", () => {
  assertEquals(code("grep -r --include='*.py' tokenizer ."), "excluded");
  assertEquals(code("grep -r --include='*.js' tokenizer ."), "credit");
  assertEquals(code("rg -g '*.py' tokenizer"), "excluded");
  assertEquals(code("rg -g 'src/**/*.js' tokenizer"), "credit");
  assertEquals(code("rg -g '**/src/*.js' tokenizer ."), "credit");
  // Only ripgrep reads a glob with a directory part against the path.
  assertEquals(code("grep -r --include='src/*.js' tokenizer ."), "excluded");
  assertEquals(code("find . -path '*/src/*' -name '*tokenizer*'"), "credit");
  assertEquals(code("find . -path '*/src/*' -print | grep tokenizer"), "stdin-only");
  assertEquals(code("find . -regex '.*tokenizer.*'"), "excluded");
  assertEquals(code("find . -iname '*TOKENIZER*'"), "credit");
  assertEquals(code("tree -P '*.py' src"), null);
  assertEquals(code("tree -P '*.py|*tokenizer*' src"), "credit");
  assertEquals(code("ugrep -r --include='*.js' tokenizer ."), "credit");
});

Deno.test("[type-filters] rg -t and ugrep -t include the type's globs; fd -e includes *.<ext>", () => {
  assertEquals(code("rg -t py tokenizer src"), "excluded");
  assertEquals(code("rg -tjs tokenizer src"), "credit");
  assertEquals(code("rg --type=ts tokenizer src"), "excluded");
  assertEquals(code("ugrep -r -t python tokenizer ."), "excluded");
  assertEquals(code("ugrep -r -t js,python tokenizer ."), "credit");
  assertEquals(code("ugrep -r -O js tokenizer ."), "credit");
  assertEquals(code("fd -e JS tokenizer"), "credit");
  assertEquals(code("fd --extension=.py tokenizer"), "excluded");
});

Deno.test("[directory-changes] a plain literal cd rebases later relative operands in the same command", () => {
  assertEquals(code("cd src && rg tokenizer"), "credit");
  assertEquals(code("cd src && rg tokenizer ."), "credit");
  assertEquals(code("cd lib && rg tokenizer ."), "out-of-scope");
  assertEquals(code("cd /elsewhere && rg tokenizer"), "out-of-scope");
  assertEquals(code(`cd /elsewhere && rg tokenizer ${SRC}`), "credit");
  assertEquals(code("cd $DIR && rg tokenizer ."), "out-of-scope");
  assertEquals(code("cd - && rg tokenizer ."), "out-of-scope");
  assertEquals(code("pushd src && rg tokenizer ."), "out-of-scope");
  assertEquals(code("git -C src grep tokenizer"), "credit");
  assertEquals(code("git -C lib grep tokenizer"), "out-of-scope");
  // An unknown git global option makes the segment unreadable as a search.
  assertEquals(code("git --git-dir=x grep tokenizer"), "not-a-search");
  assertEquals(code("fd --base-directory src tokenizer"), "credit");
});

Deno.test("[directory-changes] a cd that may not affect later segments does not rebase them", () => {
  // Each cd runs in a subshell, a pipeline, the background, or only on a failure, so the
  // search after it runs in the tool cwd, where `../src` lies outside the project.
  for (
    const command of [
      "(cd src); rg tokenizer ../src",
      "(cd src && true); rg tokenizer ../src",
      "cd src | rg tokenizer ../src",
      "cd src & rg tokenizer ../src",
      "true || cd src; rg tokenizer ../src",
      "cd src || rg tokenizer ../src",
      "cd src && true || rg tokenizer ../src",
    ]
  ) {
    assertEquals(code(command), "out-of-scope", command);
  }
  assertEquals(code("cd src && rg tokenizer ."), "credit");
  assertEquals(code("cd src; rg tokenizer ../src"), "credit");
});

/** A call whose records carry no `cwd`, as in transcripts of clients that do not write one. */
const unplaced = (call: Call): Call => ({ ...call, cwd: null });

Deno.test("[directory-changes] each shell search resolves against the cwd its own record carries", () => {
  const cd = bash("cd src");
  // The client keeps the shell in src, and the next call's record says so.
  assertEquals(creditOf([cd, bash("rg tokenizer .", { cwd: SRC })], tokenizer).credited, true);
  assertEquals(
    creditOf([cd, bash("rg tokenizer src", { cwd: SRC })], tokenizer).miss?.code,
    "out-of-scope",
  );
  // The payload's cwd is where the search left the shell, not where it started.
  const inSrc = { toolCwd: SRC, projectDirEnv: null, processCwd: "/" };
  assertEquals(
    creditOf([bash("cd src && rg tokenizer .", { cwd: ROOT })], tokenizer, { roots: inSrc }),
    credited("Bash", "cd src && rg tokenizer ."),
  );
  assertEquals(
    creditOf([bash("cd lib && rg tokenizer .", { cwd: ROOT })], tokenizer, { roots: inSrc })
      .miss?.code,
    "out-of-scope",
  );
  // Glob, Grep and LS resolve their relative paths against their own records too.
  const grepIn = (cwd: string): Call => ({
    name: "Grep",
    input: { pattern: "tokenizer", path: "." },
    cwd,
  });
  assertEquals(creditOf([cd, grepIn(SRC)], tokenizer).credited, true);
  assertEquals(creditOf([cd, grepIn(`${ROOT}/lib`)], tokenizer).credited, false);
  // A recorded cwd that is not absolute tells nothing.
  assertEquals(
    creditOf([cd, bash("rg tokenizer src", { cwd: "proj" })], tokenizer).credited,
    false,
  );
});

Deno.test("[directory-changes] a cd sent in the same batch as a search leaves the search's start unknown", () => {
  // Both records were written when the model sent the batch; the cd may have run first.
  const batch = [bash("cd lib", { message: "m1" }), bash("rg tokenizer src", { message: "m1" })];
  assertEquals(creditOf(batch, tokenizer).miss?.code, "out-of-scope");
  assertEquals(
    creditOf([batch[0], bash(`rg tokenizer ${SRC}`, { message: "m1" })], tokenizer).credited,
    true,
  );
  // A batch without a directory change keeps the recorded start.
  const calm = [bash("ls", { message: "m2" }), bash("rg tokenizer src", { message: "m2" })];
  assertEquals(creditOf(calm, tokenizer).credited, true);
  // A cd the client refused to run moved nothing.
  const refused = [
    bash("cd lib", { message: "m3", denied: true }),
    bash("rg tokenizer src", { message: "m3" }),
  ];
  assertEquals(creditOf(refused, tokenizer).credited, true);
});

Deno.test("[directory-changes] without recorded cwds, a cd in any shell call of the turn leaves only absolute operands", () => {
  const cd = unplaced(bash("cd src"));
  const search = (command: string): Call => unplaced(bash(command));
  assertEquals(creditOf([cd, search("rg tokenizer .")], tokenizer).miss?.code, "out-of-scope");
  assertEquals(creditOf([cd, search("rg tokenizer")], tokenizer).miss?.code, "out-of-scope");
  assertEquals(creditOf([cd, search(`rg tokenizer ${SRC}`)], tokenizer).credited, true);
  assertEquals(
    creditOf([search("rg tokenizer src"), search("pushd /tmp")], tokenizer).credited,
    false,
  );
  assertEquals(creditOf([search("rg tokenizer src")], tokenizer).credited, true);
  // A failed call that changed directory still counts; a refused one never ran.
  assertEquals(
    creditOf([{ ...cd, error: true }, search("rg tokenizer src")], tokenizer).credited,
    false,
  );
  assertEquals(
    creditOf([{ ...cd, denied: true }, search("rg tokenizer src")], tokenizer).credited,
    true,
  );
  // An unreadable call is judged by its words.
  assertEquals(
    creditOf([search("cd $(mktemp -d)"), search("rg tokenizer src")], tokenizer).credited,
    false,
  );
  // Glob, Grep and LS calls are unaffected.
  assertEquals(
    creditOf(
      [cd, { name: "Grep", input: { pattern: "tokenizer", path: "src" }, cwd: null }],
      tokenizer,
    ).credited,
    true,
  );
});

Deno.test("[directory-changes] without recorded cwds, a call's own cd is read from the payload's cwd both ways", () => {
  const search = (command: string): Call => unplaced(bash(command));
  // Started in the payload's cwd, or ended there: `src` is covered either way.
  assertEquals(
    creditOf([search("cd src && rg tokenizer .")], tokenizer),
    credited("Bash", "cd src && rg tokenizer ."),
  );
  assertEquals(creditOf([search("cd src && rg tokenizer ..")], tokenizer).credited, true);
  // Started there it searched lib/; ended there it searched the root: only one covers src/.
  assertEquals(creditOf([search("cd lib && rg tokenizer .")], tokenizer).credited, false);
  assertEquals(creditOf([search("cd src && rg tokenizer ../lib")], tokenizer).credited, false);
  // A change after the search leaves its place unknown when the client keeps changes.
  assertEquals(creditOf([search("cd src && rg tokenizer . && cd ..")], tokenizer).credited, false);
  assertEquals(creditOf([search("cd src; rg tokenizer .; cd /tmp")], tokenizer).credited, false);
  // A second mover in the turn still leaves every start unknown.
  assertEquals(
    creditOf([search("cd lib"), search("cd src && rg tokenizer .")], tokenizer).credited,
    false,
  );
  // An absolute cd needs no start at all.
  assertEquals(creditOf([search(`cd ${SRC} && rg tokenizer .`)], tokenizer).credited, true);
});

Deno.test("[new-file-detection] a shell operand naming the new file's existing directory credits it", () => {
  const fresh = target(`${SRC}/widget_factory.ts`, { isNewWrite: true });
  const fs = new MemoryFs({}, [SRC, `${ROOT}/lib`]);
  for (
    const command of [
      "ls src",
      "ls src/",
      "ls -la src/*",
      "find src/** -type f",
      "rg -l import src",
      "tree src",
    ]
  ) {
    assertEquals(code(command, fresh, fs), "credit", command);
  }
  // `.`, `~`, variables and globs name no directory; the directory must exist.
  for (const command of ["ls .", `ls ~/proj/src`, "ls $SRC", "ls s*", "ls lib", "ls src"]) {
    const useFs = command === "ls src" ? new MemoryFs() : fs;
    assertEquals(code(command, fresh, useFs), null, command);
  }
  // The pattern argument of a grep-style tool is skipped, unless -e supplied the pattern.
  assertEquals(code("grep -r src .", fresh, fs), null);
  assertEquals(code("grep -r -e import src", fresh, fs), "credit");
  // The same batch, an exclusion, or stdin still apply.
  assertEquals(code("ls -I '*.ts' src", fresh, fs), "excluded");
  assertEquals(
    creditOf([bash("ls src", { sameBatch: true })], fresh, { fs }),
    missed("same-batch", "Bash", "ls src"),
  );
  // An existing file is matched by stem only.
  assertEquals(code("ls src", target(`${SRC}/widget_factory.ts`), fs), null);
});

Deno.test("[directory-changes] without recorded cwds, any directory change in the turn turns shell directory matching off", () => {
  const fresh = target(`${SRC}/widget_factory.ts`, { isNewWrite: true });
  const fs = new MemoryFs({}, [SRC]);
  const shell = (command: string): Call => unplaced(bash(command));
  assertEquals(creditOf([shell("cd . && ls src")], fresh, { fs }).credited, false);
  assertEquals(creditOf([shell("cd /"), shell(`ls ${SRC}`)], fresh, { fs }).credited, false);
  // Stem matching still applies.
  assertEquals(
    creditOf([shell("cd /"), shell(`rg widget_factory ${SRC}`)], fresh, { fs }).credited,
    true,
  );
  // Tool directory evidence is unaffected.
  assertEquals(
    creditOf([shell("cd /"), { name: "LS", input: { path: SRC }, cwd: null }], fresh, { fs })
      .credited,
    true,
  );
  // With recorded cwds the shell's start is known, so a listing names its directory.
  assertEquals(code("cd . && ls src", fresh, fs), "credit");
  assertEquals(
    creditOf([bash("cd /"), bash(`ls ${SRC}`, { cwd: "/" })], fresh, { fs }).credited,
    true,
  );
});

Deno.test("[prior-search-credit] on Windows a shell operand credits only when spelled C:/x/src", () => {
  const win = target("C:/x/src/tokenizer.js", { windowsStyle: true });
  const roots = { toolCwd: "C:/x", projectDirEnv: null, processCwd: "/" };
  const check = (command: string): string | null => {
    const res = creditOf([bash(command)], win, { roots });
    return res.credited ? "credit" : res.miss?.code ?? null;
  };
  assertEquals(check("rg tokenizer C:/x/src"), "credit");
  assertEquals(check("rg tokenizer c:/X/SRC"), "credit");
  assertEquals(check("rg tokenizer src"), "credit");
  assertEquals(check("rg tokenizer 'C:\\x\\src'"), "out-of-scope");
  assertEquals(check("rg tokenizer C:\\x\\src"), "out-of-scope");
  assertEquals(check("rg tokenizer /c/x/src"), "out-of-scope");
});

Deno.test("[closest-search-that-did-not-count] every reason code comes out of a realistic turn", () => {
  const t = target(`${SRC}/payment.py`);
  const cases: [Call[], Outcome][] = [
    [[bash("rg payment src", { sameBatch: true })], missed("same-batch", "Bash", "rg payment src")],
    [[bash("rg -t js payment src")], missed("excluded", "Bash", "rg -t js payment src")],
    [[bash("rg payment docs")], missed("out-of-scope", "Bash", "rg payment docs")],
    [[bash("git diff | grep payment")], missed("stdin-only", "Bash", "git diff | grep payment")],
    [[bash("python src/payment.py")], missed("not-a-search", "Bash", "python src/payment.py")],
  ];
  for (const [calls, expected] of cases) assertEquals(creditOf(calls, t), expected);
  assertEquals(
    creditOf([bash("rg app src")], target(`${SRC}/app.py`)),
    missed("generic-stem", "Bash", "rg app src"),
  );
});

Deno.test("[glob-matching-without-regexp] hostile glob operands and filters cost counted work", () => {
  const hostile = "*a".repeat(60) + "b";
  const cases: [string, string][] = [
    [`rg tokenizer ${hostile}/*.js -g '${hostile}' -g '!${hostile}'`, "out-of-scope"],
    [`find . -name '${hostile}' -name '*tokenizer*' -not -name '${hostile}'`, "credit"],
    [`rg -g '[' tokenizer`, "excluded"],
  ];
  for (const [command, expected] of cases) {
    const budget = new WorkBudget();
    assertEquals(code(command, tokenizer, undefined, budget), expected, command);
    assertEquals(budget.exhausted(), null);
    // Each of the command's three patterns is parsed at most twice.
    const bound = WORK_PER_CHAR * command.length + 6 * GLOB_PARSE_UNITS;
    assert(budget.spent <= bound, `${command}: ${budget.spent} units`);
  }
});

Deno.test("[directory-changes] cd run through builtin or command, or a bare name after shopt -s autocd, changes directory", () => {
  expectCodes([
    "builtin cd /elsewhere; rg tokenizer .",
    "command cd /elsewhere; rg tokenizer .",
    "command -p cd /elsewhere && rg tokenizer .",
    "builtin command cd /elsewhere; rg tokenizer .",
    "builtin pushd /elsewhere; rg tokenizer src",
    "shopt -s autocd; lib; rg tokenizer ../src",
    "shopt -s autocd globstar\nlib\nrg tokenizer ../src",
  ], "out-of-scope");
  // A literal builtin cd rebases like cd does.
  assertEquals(code("builtin cd src && rg tokenizer ."), "credit");
  assertEquals(code("command cd lib && rg tokenizer ."), "out-of-scope");
  // Benign look-alikes: describing cd, another shell option, autocd off, no bare word.
  expectCodes([
    "command -v cd; rg tokenizer src",
    "shopt -s globstar; lib; rg tokenizer src",
    "shopt -u autocd; lib; rg tokenizer src",
    "shopt -s autocd; rg tokenizer src",
    "echo builtin cd /x; rg tokenizer src",
  ], "credit");
  // In another call without recorded cwds, each of them leaves the shell's place unknown.
  for (const mover of ["builtin cd /x", "command cd /x", "shopt -s autocd; lib"]) {
    const calls = [unplaced(bash(mover)), unplaced(bash("rg tokenizer src"))];
    assertEquals(creditOf(calls, tokenizer).credited, false, mover);
  }
});

Deno.test("[search-scope] a search held at depth 0 reads no file of its directory; shallower limits stop above the target", () => {
  expectCodes([
    "rg --max-depth 0 tokenizer src",
    "rg -d 0 tokenizer src",
    "rg -nd0 tokenizer .",
    "rg --maxdepth=0 tokenizer",
    "find src -maxdepth 0 -name '*tokenizer*'",
    "fd -d 0 tokenizer src",
    "rg --max-depth 1 tokenizer .",
    "find . -maxdepth 1 -name '*tokenizer*'",
    "fd --min-depth 3 tokenizer src",
    "fd --exact-depth 2 tokenizer src",
    "rg --max-depth $DEPTH tokenizer src",
    "rg --max-depth 1 tokenizer s*/**",
    "git grep --max-depth 0 tokenizer",
    "git grep --max-depth=0 tokenizer -- .",
  ], "out-of-scope");
  // Benign look-alikes: deep enough, a file operand read at depth 0, other options.
  expectCodes([
    "rg --max-depth 1 tokenizer src",
    "rg -d 2 tokenizer .",
    "find . -maxdepth 2 -name '*tokenizer*'",
    "find src -mindepth 1 -name '*tokenizer*'",
    "fd --exact-depth 1 tokenizer src",
    "rg --max-depth 0 tokenizer src/*.js",
    "rg -d 1 tokenizer s*",
    "git grep --max-depth 0 tokenizer -- src",
    "git grep --max-depth 1 tokenizer",
    "git grep --max-depth -1 tokenizer",
  ], "credit");
  // New-file credit: a listing held at depth 0 never saw the directory's contents.
  const fresh = target(`${SRC}/widget_factory.ts`, { isNewWrite: true });
  const fs = new MemoryFs({}, [SRC]);
  assertEquals(code("find src -maxdepth 0", fresh, fs), null);
  assertEquals(code("find src -maxdepth 1", fresh, fs), "credit");
});

Deno.test("[search-scope] fd name lookups are lookups: a glob of the name, or a regex anchored around it", () => {
  expectCodes([
    "fd -g tokenizer.js",
    "fd --glob tokenizer.js src",
    "fd -g '{tokenizer.js}' src",
    "fd '^tokenizer\\.js$'",
    "fd '^tokenizer[.]js$' src",
    "fd -p '/tokenizer\\.js$'",
    "fd -F -g tokenizer.js",
    "fd -H -g tokenizer.js src",
  ], "not-a-search");
  // Benign look-alikes: patterns that can match other names search.
  expectCodes([
    "fd tokenizer",
    "fd tokenizer src",
    "fd 'tokenizer\\.js$'",
    "fd '^tokenizer'",
    "fd '^tokenizer\\.(js|ts)$'",
    "fd -g 'tokenizer.*'",
    "fd -F tokenizer.js",
    "fd -g --regex '^tokenizer'",
  ], "credit");
  // An exact name that is not the target keeps the target out.
  assertEquals(code("fd -g parser.js src", target(`${SRC}/tokenizer.js`)), null);
  assertEquals(code("fd '^tokenizer\\.ts$' src"), "excluded");
});

Deno.test("[directory-changes] eval, source and . run code whose directory change cannot be followed", () => {
  expectCodes([
    "eval cd /elsewhere; rg tokenizer .",
    "eval 'cd /elsewhere'; rg tokenizer .",
    'eval "pushd /elsewhere"; rg tokenizer src',
    "eval $MOVE; rg tokenizer .",
    "source env.sh; rg tokenizer src",
    ". ./env.sh && rg tokenizer src",
    "eval 'shopt -s autocd'; lib; rg tokenizer ../src",
  ], "out-of-scope");
  // eval of a known cd is no plain cd: it never rebases later operands.
  assertEquals(code("eval cd src && rg tokenizer ."), "out-of-scope");
  // Benign look-alikes: eval of code that moves nothing, a word that only contains cd.
  expectCodes([
    "eval 'echo hi'; rg tokenizer src",
    "eval export CDPATH=x; rg tokenizer src",
    "echo source; rg tokenizer src",
    "rg tokenizer src; eval cd /elsewhere",
  ], "credit");
  // In another call without recorded cwds, each of them leaves the shell's place unknown.
  for (const mover of ["eval cd /x", "source env.sh", "eval $(direnv export bash)"]) {
    const calls = [unplaced(bash(mover)), unplaced(bash("rg tokenizer src"))];
    assertEquals(creditOf(calls, tokenizer).credited, false, mover);
  }
  assertEquals(
    creditOf([unplaced(bash("eval 'echo hi'")), unplaced(bash("rg tokenizer src"))], tokenizer)
      .credited,
    true,
  );
});

Deno.test("[search-output] a search whose output never reached the model earns no credit and no miss", () => {
  expectCodes([
    "rg tokenizer src > /dev/null",
    "rg tokenizer src >/tmp/hits.txt",
    "rg tokenizer src &> /dev/null",
    "rg tokenizer src >& /dev/null",
    "rg tokenizer src 2>&1 >/dev/null",
    "rg tokenizer src >&-",
    "rg tokenizer src 1>&3",
    "rg tokenizer src 2>/dev/null >&2",
    "rg -q tokenizer src",
    "rg --quiet tokenizer src",
    "grep -rq tokenizer src",
    "grep -r --silent tokenizer src",
    "rg -c tokenizer src",
    "rg --count-matches tokenizer src",
    "grep -rc tokenizer src",
    "git grep -c tokenizer",
    "rg -m 0 tokenizer src",
    "rg -m0 tokenizer src",
    "grep -r --max-count=0 tokenizer src",
    "fd -q tokenizer src",
    "rg tokenizer src | wc -l",
    "rg tokenizer src | grep -q x",
    "rg tokenizer src | head -n 0",
    "rg tokenizer src | head -0",
    "rg tokenizer src | sort > out.txt",
    "{ rg tokenizer src; } > /dev/null",
    "(rg tokenizer src) | wc -l",
  ], null);
  // Benign look-alikes: errors discarded, output kept or shown through a pass-through consumer.
  expectCodes([
    "rg tokenizer src 2>/dev/null",
    "rg tokenizer src 2>&1",
    "rg tokenizer src >&2",
    "rg tokenizer src >&2 2>/dev/null",
    "rg -l tokenizer src",
    "rg -m 3 tokenizer src",
    "grep -r --max-count=10 tokenizer src",
    "rg tokenizer src | head -n 20",
    "rg tokenizer src | sort | uniq",
    "rg tokenizer src | tee /tmp/hits.txt",
    "{ rg tokenizer src; } 2>/dev/null",
    "(rg tokenizer src) | head",
    "rg tokenizer src > /dev/null; rg tokenizer src",
  ], "credit");
});

Deno.test("[search-output] a search a preceding condition may have skipped earns no credit", () => {
  expectCodes([
    "test -d src && rg tokenizer src",
    "[ -d src ] && rg tokenizer src",
    "git diff --quiet && rg tokenizer src",
    "rg foo . && rg tokenizer src",
    "if test -d src; then rg tokenizer src; fi",
    "while false; do rg tokenizer src; done",
    "(test -d src) && rg tokenizer src",
  ], null);
  // Benign look-alikes: after `;`, after commands that cannot fail, after a cd, in a subshell.
  expectCodes([
    "test -d src; rg tokenizer src",
    "echo searching && rg tokenizer src",
    "true && rg tokenizer src",
    "cd src && rg tokenizer .",
    "cd src && echo here && rg tokenizer .",
    "(rg tokenizer src)",
    "rg tokenizer src && test -d src",
  ], "credit");
});

Deno.test("[search-output] find predicates and types that list no ordinary file do not cover the target", () => {
  expectCodes([
    "find src -type d -name '*tokenizer*'",
    "find src -name '*tokenizer*' -type d",
    "find src -type d,p -name '*tokenizer*'",
    "fd -t d tokenizer src",
    "fd --type directory tokenizer src",
    "fd -t d -t s tokenizer src",
  ], null);
  // A name test that misses the target is an include that excludes it.
  assertEquals(code("find src -name '*tokenizer*.md'"), "excluded");
  // Benign look-alikes: files listed, a negated type, a type in one alternative only.
  expectCodes([
    "find src -type f -name '*tokenizer*'",
    "find src -type f,d -name '*tokenizer*'",
    "find src ! -type d -name '*tokenizer*'",
    "find src -type d -o -name '*tokenizer*'",
    "fd -t f tokenizer src",
    "fd -t d -t f tokenizer src",
  ], "credit");
});

Deno.test("[default-skips] rg, fd and git grep earn no credit for a file they skip by default", () => {
  const repo = (ignore: string): MemoryFs =>
    new MemoryFs({ [`${ROOT}/.gitignore`]: ignore }, [`${ROOT}/.git`, SRC]);
  const generated = target(`${SRC}/gen/tokenizer.js`);
  const hidden = target(`${ROOT}/.config/tokenizer.js`);
  const ignoreGen = repo("# build output\nsrc/gen/\n*.log\n");
  const codeIn = (command: string, t: typeof tokenizer, fs: MemoryFs): string | null =>
    code(command, t, fs);
  // Ignored: rg, fd and git grep skip it; flags that lift the skip restore the credit.
  for (
    const command of [
      "rg tokenizer src",
      "fd tokenizer src",
      "git grep tokenizer",
      "rg -u tokenizer --hidden",
    ]
  ) {
    assertEquals(
      codeIn(command, generated, ignoreGen),
      command.includes("-u") ? "credit" : "excluded",
      command,
    );
  }
  for (
    const command of [
      "rg --no-ignore tokenizer src",
      "rg -uu tokenizer src",
      "fd -I tokenizer src",
      "fd -u tokenizer src",
      "git grep --no-index tokenizer",
      "grep -r tokenizer src",
      "find src -name '*tokenizer*'",
    ]
  ) {
    assertEquals(codeIn(command, generated, ignoreGen), "credit", command);
  }
  // An unanchored name and a glob ignore anywhere below the file's directory.
  assertEquals(codeIn("rg tokenizer src", generated, repo("gen\n")), "excluded");
  assertEquals(codeIn("rg tokenizer src", tokenizer, repo("*.js\n")), "excluded");
  // Doubt keeps the credit: a negation, no repository, a pattern for another place.
  assertEquals(
    codeIn("rg tokenizer src", generated, repo("src/gen/\n!src/gen/tokenizer.js\n")),
    "credit",
  );
  assertEquals(
    codeIn(
      "rg tokenizer src",
      generated,
      new MemoryFs({ [`${ROOT}/.gitignore`]: "src/gen/\n" }, [SRC]),
    ),
    "credit",
  );
  assertEquals(codeIn("rg tokenizer src", generated, repo("/gen/\nlib/\n")), "credit");
  assertEquals(codeIn("rg tokenizer src", tokenizer, repo("tokenizer.js/\n")), "credit");
  // A nested .gitignore applies below its own directory.
  const nested = new MemoryFs({ [`${SRC}/.gitignore`]: "gen/\n" }, [`${ROOT}/.git`, SRC]);
  assertEquals(codeIn("rg tokenizer src", generated, nested), "excluded");
  // Hidden: rg and fd skip names starting with a dot below the searched path, git grep does not.
  const none = repo("");
  assertEquals(codeIn("rg tokenizer .", hidden, none), "excluded");
  assertEquals(codeIn("fd tokenizer", hidden, none), "excluded");
  for (
    const command of [
      "rg --hidden tokenizer .",
      "rg -. tokenizer",
      "rg -uu tokenizer",
      "fd -H tokenizer",
      "git grep tokenizer",
      "rg tokenizer .config",
      "grep -r tokenizer .",
    ]
  ) {
    assertEquals(codeIn(command, hidden, none), "credit", command);
  }
});

Deno.test("[default-skips] reading ignore files is bounded by the work budget and fails closed", () => {
  // A long .gitignore that does not ignore the target: read in full, the search credits.
  const fs = new MemoryFs({ [`${ROOT}/.gitignore`]: "lib/\n".repeat(3000) }, [`${ROOT}/.git`, SRC]);
  const generated = target(`${SRC}/gen/tokenizer.js`);
  const search = [bash("rg tokenizer src")];
  assertEquals(creditOf(search, generated, { fs, budget: new WorkBudget() }).credited, true);
  // A budget that pays for the parse but not for the 15,000 bytes: no credit.
  const budget = new WorkBudget(12_000);
  assertEquals(creditOf(search, generated, { fs, budget }).credited, false);
  assert(budget.spent <= 12_000);
  // A file over the size bound is not read: doubt keeps the credit.
  const big = new MemoryFs({ [`${ROOT}/.gitignore`]: "src/gen/\n" + "#".repeat(17 * 1024) }, [
    `${ROOT}/.git`,
    SRC,
  ]);
  assertEquals(creditOf(search, generated, { fs: big }).credited, true);
});
