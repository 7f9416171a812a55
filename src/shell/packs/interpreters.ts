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

/** Library calls that delete a directory tree. */
const TREE_DELETES: readonly RegExp[] = [
  /\brmtree\b/,
  /\bremove_tree\b/,
  /\b(rm|rmdir)(Sync)?\s*\([^)]*recursive\s*:\s*(true|1|!0)/,
  /\bDeno\s*\.\s*remove(Sync)?\s*\([^)]*recursive\s*:\s*true/,
  /\bFileUtils\s*\.\s*(rm_rf|rm_r|remove_dir|remove_entry(_secure)?|rmtree)\b/,
  /\bunlink\s*\(?\s*(glob\b|<)/,
  /\barray_map\s*\(\s*['"]unlink['"]/,
];

/** Calls that hand a command to a shell or start a program. */
const SHELL_OUTS =
  /\bos\s*\.\s*(system|popen|exec\w*|spawn\w*)\b|\bsubprocess\b|\bchild_process\b|\b(execSync|spawnSync|execFileSync|shell_exec|passthru|proc_open|popen)\b|\b(exec|spawn|execFile|system)\s*\(|\bDeno\s*\.\s*(run|Command)\b|\bBun\s*\.\s*(spawn|spawnSync|\$)|\bOpen3\b|%x[{([]|\bqx\s*[{([]|`|\|\s*getline|\bprint\s[^;]*\|\s*"/;

/**
 * String literals of a program, quotes removed and backslash escapes
 * undone; Ruby's `%x(…)` and Perl's `qx{…}` command literals count too.
 */
function literals(code: string): string[] {
  const out: string[] = [];
  for (
    const m of code.matchAll(
      /'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|`((?:[^`\\]|\\.)*)`|(?:%x|\bqx)\s*(?:\(([^)]*)\)|\{([^}]*)\}|\[([^\]]*)\])/g,
    )
  ) {
    out.push((m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? m[6]).replace(/\\(.)/g, "$1"));
  }
  return out;
}

/** Most literals a joined reading may start at, so the work stays linear in practice. */
const MAX_JOIN_STARTS = 16;

/**
 * Whether a one-liner destroys data: a library call that deletes a tree,
 * or a shell-out whose command, read from the program's string literals one
 * by one and joined from each one on (`["rm", "-rf", "x"]`), is destructive.
 */
export function codeDestroys(code: string, input: RuleInput): boolean {
  if (TREE_DELETES.some((re) => re.test(code))) return true;
  if (!SHELL_OUTS.test(code)) return false;
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

/** A rule over the code texts `code` extracts from the arguments. */
function oneLiner(code: (args: readonly string[]) => string[]): (input: RuleInput) => boolean {
  return (input) => code(input.args).some((text) => codeDestroys(text, input));
}

const DESTROYS = "runs code that deletes a tree or hands a destructive command to a shell";

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
      commands: ["python*", "pypy*"],
      when: [{ test: oneLiner((args) => clusterCode(args, "c", "WXQm")) }],
      destroys: DESTROYS,
    },
    {
      id: "node-code",
      commands: ["node", "nodejs", "bun"],
      when: [{
        test: oneLiner((args) => [
          ...clusterCode(args, "ep", "r"),
          ...longCode(args, ["eval", "print"]),
        ]),
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
      id: "perl-ruby-code",
      commands: ["perl", "ruby"],
      when: [{ test: oneLiner((args) => clusterCode(args, "eE", "iIlx0CdDmMrF")) }],
      destroys: DESTROYS,
    },
    {
      id: "php-code",
      commands: ["php"],
      when: [{ test: oneLiner((args) => clusterCode(args, "r")) }],
      destroys: DESTROYS,
    },
    {
      id: "lua-r-code",
      commands: ["lua", "rscript"],
      when: [{ test: oneLiner((args) => clusterCode(args, "e")) }],
      destroys: DESTROYS,
    },
    {
      id: "awk-system",
      commands: ["awk", "gawk", "mawk", "nawk", "busybox-awk"],
      when: [{ test: oneLiner(awkProgram) }],
      destroys: DESTROYS,
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
