/**
 * The command-line knowledge the search evidence needs, as data: which
 * commands are tree searches and which family reads each one's flags,
 * PowerShell parameters, and the built-in file-type globs of ripgrep and
 * ugrep. Each program's option table (rg, grep, ugrep, git grep, fd, find,
 * ls, tree) lives in `shell/programs/`, once, shared with the shell checks.
 *
 * Parsing code reads these tables and never branches on a flag name
 * itself, so a flag is described exactly once.
 *
 * @module
 */

import type { FamilySpec } from "../shell/programs/mod.ts";

/**
 * How a content search reads its patterns: a POSIX extended regex or one
 * like it (`|` separates alternatives), a basic regex (`\|` does), or
 * literal text.
 */
export type PatternSyntax = "ere" | "bre" | "fixed";
import {
  FD_FLAGS,
  GIT_GREP_FLAGS,
  GIT_LS_FILES_FLAGS,
  GREP_FLAGS,
  LS_FLAGS,
  RG_FLAGS,
  TREE_FLAGS,
  UGREP_FLAGS,
} from "../shell/programs/mod.ts";

/** The search tool families whose arguments are read the same way. */
export type Family =
  | "rg"
  | "grep"
  | "ugrep"
  | "git-grep"
  | "git-ls-files"
  | "find"
  | "fd"
  | "ls"
  | "tree"
  | "gci"
  | "sls";

/** Argument tables of every family read through flags (find, gci and sls have their own). */
export const FAMILIES: Readonly<Record<Exclude<Family, "find" | "gci" | "sls">, FamilySpec>> = {
  rg: RG_FLAGS,
  grep: GREP_FLAGS,
  ugrep: UGREP_FLAGS,
  "git-grep": GIT_GREP_FLAGS,
  "git-ls-files": GIT_LS_FILES_FLAGS,
  fd: FD_FLAGS,
  ls: LS_FLAGS,
  tree: TREE_FLAGS,
};

/**
 * What each family skips unless told otherwise: hidden files (a name
 * starting with `.` below the searched path) and files its ignore files
 * ignore. Families not listed skip neither.
 */
export const DEFAULT_SKIPS: Readonly<
  Partial<Record<Family, { hidden: boolean; ignored: boolean }>>
> = {
  rg: { hidden: true, ignored: true },
  fd: { hidden: true, ignored: true },
  "git-grep": { hidden: false, ignored: true },
};

/** Bash commands that lead a tree search, by family. `git` is read by subcommand. */
export const BASH_SEARCH_COMMANDS: Readonly<Record<string, Family>> = {
  rg: "rg",
  grep: "grep",
  egrep: "grep",
  fgrep: "grep",
  ugrep: "ugrep",
  ug: "ugrep",
  find: "find",
  bfs: "find",
  fd: "fd",
  ls: "ls",
  tree: "tree",
};

/** PowerShell commands (lowercased) that lead a tree search, by family. */
export const POWERSHELL_SEARCH_COMMANDS: Readonly<Record<string, Family>> = {
  "get-childitem": "gci",
  gci: "gci",
  ls: "gci",
  "select-string": "sls",
  sls: "sls",
  rg: "rg",
  fd: "fd",
};

/**
 * The families that search file contents, and how each reads its patterns
 * unless an option says otherwise (ripgrep and .NET regexes read `|` as
 * ERE does). The others search names, so they never search for a symbol.
 */
export const CONTENT_SYNTAX: Readonly<Partial<Record<Family, PatternSyntax>>> = {
  rg: "ere",
  grep: "bre",
  ugrep: "ere",
  "git-grep": "bre",
  sls: "ere",
};

/** Commands that fix their family's pattern syntax by their name. */
export const COMMAND_SYNTAX: Readonly<Record<string, PatternSyntax>> = {
  egrep: "ere",
  fgrep: "fixed",
};

/** `git` subcommands that search, by family. */
export const GIT_SEARCH_SUBCOMMANDS: Readonly<Record<string, Family>> = {
  grep: "git-grep",
  "ls-files": "git-ls-files",
};

/**
 * Entry kinds that are never an ordinary file, as find's `-type` letters
 * and fd's `-t` names spell them: a search listing only these lists no file.
 */
export const NON_FILE_KINDS: ReadonlySet<string> = new Set([
  "d",
  "directory",
  "b",
  "block-device",
  "c",
  "char-device",
  "p",
  "pipe",
  "s",
  "socket",
  "D",
]);

/** Bash commands that change the working directory. */
export const BASH_DIR_CHANGES: ReadonlySet<string> = new Set(["cd", "pushd", "popd", "chdir"]);

/**
 * Commands that run code the reader does not follow in the current shell,
 * by dialect: `words` runs its own arguments as a command (a directory
 * change among them moves the shell), `script` runs a file that may do
 * anything, so it always counts as a directory change of unknown place.
 */
export const INDIRECT_RUNNERS: Readonly<
  Record<"bash" | "powershell", Readonly<Record<string, "words" | "script">>>
> = {
  bash: { eval: "words", source: "script", ".": "script" },
  powershell: { "invoke-expression": "words", iex: "words" },
};

/** PowerShell commands (lowercased) that change the working directory. */
export const POWERSHELL_DIR_CHANGES: ReadonlySet<string> = new Set([
  "cd",
  "chdir",
  "set-location",
  "sl",
  "push-location",
  "pushd",
  "pop-location",
  "popd",
]);

/**
 * Of the directory changes, the ones whose single literal operand rebases
 * later relative operands of the same command.
 */
export const PLAIN_DIR_CHANGES: ReadonlySet<string> = new Set([
  "cd",
  "chdir",
  "set-location",
  "sl",
]);

/** What a PowerShell parameter does to the evidence. */
export type PsRole =
  | "path"
  | "literal-path"
  | "include"
  | "exclude"
  | "filter"
  | "pattern"
  | "recurse"
  | "depth"
  | "value"
  | "switch"
  | "silent"
  | "invert"
  | "fixed"
  | "stdin";

/** One PowerShell parameter: its full name, role and aliases (all lowercased). */
export interface PsParam {
  name: string;
  role: PsRole;
  aliases?: readonly string[];
}

/** Parameters every cmdlet accepts. */
const COMMON_PARAMETERS: readonly PsParam[] = [
  { name: "verbose", role: "switch", aliases: ["vb"] },
  { name: "debug", role: "switch", aliases: ["db"] },
  { name: "erroraction", role: "value", aliases: ["ea"] },
  { name: "warningaction", role: "value", aliases: ["wa"] },
  { name: "informationaction", role: "value", aliases: ["infa"] },
  { name: "progressaction", role: "value", aliases: ["proga"] },
  { name: "errorvariable", role: "value", aliases: ["ev"] },
  { name: "warningvariable", role: "value", aliases: ["wv"] },
  { name: "informationvariable", role: "value", aliases: ["iv"] },
  { name: "outvariable", role: "value", aliases: ["ov"] },
  { name: "outbuffer", role: "value", aliases: ["ob"] },
  { name: "pipelinevariable", role: "value", aliases: ["pv"] },
];

/** A PowerShell search cmdlet: its parameters and how positionals bind. */
export interface PsCmdlet {
  params: readonly PsParam[];
  /** Roles bound to the first, second, … positional argument. */
  positional: readonly PsRole[];
  recursive: boolean;
}

/** The PowerShell search cmdlets. */
export const POWERSHELL_CMDLETS: Readonly<Record<"gci" | "sls", PsCmdlet>> = {
  gci: {
    recursive: false,
    positional: ["path", "filter"],
    params: [
      ...COMMON_PARAMETERS,
      { name: "path", role: "path" },
      { name: "literalpath", role: "literal-path", aliases: ["lp", "pspath"] },
      { name: "filter", role: "filter" },
      { name: "include", role: "include" },
      { name: "exclude", role: "exclude" },
      { name: "recurse", role: "recurse", aliases: ["s", "r"] },
      { name: "depth", role: "depth" },
      { name: "force", role: "switch" },
      { name: "name", role: "switch" },
      { name: "attributes", role: "value" },
      { name: "directory", role: "silent", aliases: ["ad"] },
      { name: "file", role: "switch", aliases: ["af"] },
      { name: "hidden", role: "switch", aliases: ["ah", "h"] },
      { name: "readonly", role: "switch", aliases: ["ar"] },
      { name: "system", role: "switch", aliases: ["as"] },
      { name: "followsymlink", role: "switch" },
    ],
  },
  sls: {
    recursive: false,
    positional: ["pattern", "path"],
    params: [
      ...COMMON_PARAMETERS,
      { name: "pattern", role: "pattern" },
      { name: "path", role: "path" },
      { name: "literalpath", role: "literal-path", aliases: ["lp", "pspath"] },
      { name: "inputobject", role: "stdin" },
      { name: "include", role: "include" },
      { name: "exclude", role: "exclude" },
      { name: "simplematch", role: "fixed" },
      { name: "casesensitive", role: "switch" },
      { name: "quiet", role: "silent" },
      { name: "list", role: "switch" },
      { name: "noemphasis", role: "switch" },
      { name: "notmatch", role: "invert" },
      { name: "allmatches", role: "switch" },
      { name: "raw", role: "switch" },
      { name: "encoding", role: "value" },
      { name: "context", role: "value" },
      { name: "culture", role: "value" },
    ],
  },
};

/**
 * ripgrep 14.1's built-in type globs for common languages (`rg
 * --type-list`). A type missing here is unknown and never credits.
 */
export const RG_TYPES: Readonly<Record<string, readonly string[]>> = {
  asm: ["*.asm", "*.s", "*.S"],
  awk: ["*.awk"],
  c: ["*.[chH]", "*.[chH].in", "*.cats"],
  clojure: ["*.clj", "*.cljc", "*.cljs", "*.cljx"],
  cmake: ["*.cmake", "CMakeLists.txt"],
  cmd: ["*.bat", "*.cmd"],
  config: ["*.cfg", "*.conf", "*.config", "*.ini"],
  cpp: [
    "*.[ChH]",
    "*.cc",
    "*.[ch]pp",
    "*.[ch]xx",
    "*.hh",
    "*.inl",
    "*.[ChH].in",
    "*.cc.in",
    "*.[ch]pp.in",
    "*.[ch]xx.in",
    "*.hh.in",
  ],
  cs: ["*.cs"],
  csharp: ["*.cs"],
  css: ["*.css", "*.scss"],
  csv: ["*.csv"],
  dart: ["*.dart"],
  diff: ["*.patch", "*.diff"],
  docker: ["*Dockerfile*"],
  elixir: ["*.ex", "*.eex", "*.exs", "*.heex", "*.leex", "*.livemd"],
  elm: ["*.elm"],
  erlang: ["*.erl", "*.hrl"],
  fish: ["*.fish"],
  fsharp: ["*.fs", "*.fsx", "*.fsi"],
  go: ["*.go"],
  gradle: ["*.gradle", "*.gradle.kts"],
  graphql: ["*.graphql", "*.graphqls"],
  groovy: ["*.groovy", "*.gradle"],
  h: ["*.h", "*.hh", "*.hpp"],
  haskell: ["*.hs", "*.lhs", "*.cpphs", "*.c2hs", "*.hsc"],
  html: ["*.htm", "*.html", "*.ejs"],
  ini: ["*.ini"],
  java: ["*.java", "*.jsp", "*.jspx", "*.properties"],
  js: ["*.js", "*.jsx", "*.vue", "*.cjs", "*.mjs"],
  json: ["*.json", "composer.lock", "*.sarif"],
  jsonl: ["*.jsonl"],
  julia: ["*.jl"],
  jupyter: ["*.ipynb", "*.jpynb"],
  kotlin: ["*.kt", "*.kts"],
  less: ["*.less"],
  lua: ["*.lua"],
  make: [
    "[Gg][Nn][Uu]makefile",
    "[Mm]akefile",
    "[Gg][Nn][Uu]makefile.am",
    "[Mm]akefile.am",
    "[Gg][Nn][Uu]makefile.in",
    "[Mm]akefile.in",
    "*.mk",
    "*.mak",
  ],
  markdown: ["*.markdown", "*.md", "*.mdown", "*.mdwn", "*.mkd", "*.mkdn", "*.mdx"],
  md: ["*.markdown", "*.md", "*.mdown", "*.mdwn", "*.mkd", "*.mkdn", "*.mdx"],
  matlab: ["*.m"],
  nix: ["*.nix"],
  objc: ["*.h", "*.m"],
  objcpp: ["*.h", "*.mm"],
  ocaml: ["*.ml", "*.mli", "*.mll", "*.mly"],
  perl: ["*.perl", "*.pl", "*.PL", "*.plh", "*.plx", "*.pm", "*.t"],
  php: ["*.php", "*.php3", "*.php4", "*.php5", "*.php7", "*.php8", "*.pht", "*.phtml"],
  powershell: ["*.cdxml", "*.ps1", "*.ps1xml", "*.psd1", "*.psm1"],
  protobuf: ["*.proto"],
  py: ["*.py", "*.pyi"],
  python: ["*.py", "*.pyi"],
  r: ["*.R", "*.r", "*.Rmd", "*.Rnw"],
  rst: ["*.rst"],
  ruby: ["*.gemspec", ".irbrc", "Gemfile", "Rakefile", "*.rb", "config.ru"],
  rust: ["*.rs"],
  sass: ["*.sass", "*.scss"],
  scala: ["*.scala", "*.sbt"],
  sh: [
    "*.bash",
    "*.bashrc",
    ".bash_login",
    ".bash_logout",
    ".bash_profile",
    ".bashrc",
    "*.csh",
    "*.cshrc",
    ".cshrc",
    "*.ksh",
    ".kshrc",
    ".login",
    ".logout",
    ".profile",
    "*.sh",
    "*.zsh",
    "*.zshrc",
    ".zlogin",
    ".zlogout",
    ".zprofile",
    ".zshenv",
    ".zshrc",
  ],
  solidity: ["*.sol"],
  sql: ["*.sql", "*.psql"],
  svelte: ["*.svelte"],
  swift: ["*.swift"],
  tex: ["*.tex", "*.ltx", "*.cls", "*.sty", "*.bib", "*.dtx", "*.ins"],
  tf: ["*.tf", "*.tf.json", "*.tfvars"],
  toml: ["*.toml", "Cargo.lock"],
  ts: ["*.ts", "*.tsx", "*.cts", "*.mts"],
  typescript: ["*.ts", "*.tsx", "*.cts", "*.mts"],
  txt: ["*.txt"],
  vim: ["*.vim", ".vimrc", ".gvimrc", "vimrc", "gvimrc", "_vimrc", "_gvimrc"],
  vue: ["*.vue"],
  xml: ["*.xml", "*.xml.dist", "*.dtd", "*.xsl", "*.xslt", "*.xsd", "*.xjb", "*.rng", "*.sch"],
  yaml: ["*.yaml", "*.yml"],
  zig: ["*.zig"],
  zsh: [
    ".zshenv",
    "zshenv",
    ".zlogin",
    "zlogin",
    ".zprofile",
    "zprofile",
    ".zshrc",
    "zshrc",
    "*.zsh",
  ],
};

/**
 * ugrep's built-in `-t` types for common languages, as file globs. The
 * capitalised variants that also read shebang lines are left out, so they
 * count as unknown and never credit.
 */
export const UGREP_TYPES: Readonly<Record<string, readonly string[]>> = {
  asm: ["*.asm", "*.s", "*.S"],
  awk: ["*.awk"],
  batch: ["*.bat", "*.BAT", "*.cmd", "*.CMD"],
  c: ["*.c", "*.h", "*.H", "*.hdl", "*.xs"],
  "c++": ["*.cpp", "*.CPP", "*.cc", "*.cxx", "*.CXX", "*.h", "*.hh", "*.H", "*.hpp", "*.hxx"],
  cpp: ["*.cpp", "*.CPP", "*.cc", "*.cxx", "*.CXX", "*.h", "*.hh", "*.H", "*.hpp", "*.hxx"],
  csharp: ["*.cs"],
  css: ["*.css"],
  csv: ["*.csv"],
  dart: ["*.dart"],
  elixir: ["*.ex", "*.exs"],
  erlang: ["*.erl", "*.hrl"],
  go: ["*.go"],
  haskell: ["*.hs", "*.lhs"],
  html: ["*.htm", "*.html", "*.xhtml"],
  java: ["*.java", "*.properties"],
  js: ["*.js"],
  json: ["*.json"],
  kotlin: ["*.kt", "*.kts"],
  lua: ["*.lua"],
  make: ["*.mk", "*.mak", "makefile", "Makefile"],
  markdown: ["*.md"],
  node: ["*.js"],
  nodejs: ["*.js"],
  perl: ["*.pl", "*.PL", "*.pm", "*.pod", "*.t", "*.psgi"],
  php: ["*.php", "*.php3", "*.php4", "*.phtml"],
  python: ["*.py"],
  rst: ["*.rst"],
  ruby: ["*.rb", "*.rhtml", "*.rjs", "*.rxml", "*.erb", "*.rake", "*.spec", "Rakefile"],
  rust: ["*.rs"],
  scala: ["*.scala", "*.sbt"],
  shell: ["*.sh", "*.bash", "*.dash", "*.csh", "*.tcsh", "*.ksh", "*.zsh", "*.fish"],
  sql: ["*.sql", "*.ctl"],
  swift: ["*.swift"],
  text: ["*.text", "*.txt", "*.TXT", "*.md", "*.rst"],
  typescript: ["*.ts", "*.tsx"],
  xml: ["*.xml", "*.xsd", "*.xsl", "*.xslt", "*.wsdl", "*.rss", "*.svg"],
  yaml: ["*.yaml", "*.yml"],
};
