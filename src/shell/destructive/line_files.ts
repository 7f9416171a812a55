/**
 * Files a Bash line writes and runs in the same call: `echo 'rm -rf x' >
 * s.sh && sh s.sh` shows the script it runs, so it is read like a script
 * handed over directly. A file gets what the command writing it prints
 * (`echo`, `printf`, `cat <<EOF`, `tee`), or, when a fetcher writes it
 * (`curl -o f`, `wget URL`, `curl … > f`), content that cannot be read.
 * A file is run by a shell (`sh f`, `bash f`), by `source` or `.`, as a
 * program (`./f`), by a scheduler later (`at -f f now`, `batch -f f`), or by an interpreter given it as its script
 * (`python3 f`, `node f`, `tsx f`, `deno run f`, `ruby f`, `perl f`). Files
 * from earlier calls are not read: see
 * `docs/evasions.md`.
 *
 * @module
 */

import { programName, scanArgs } from "../programs/mod.ts";
import type { Segment } from "../bash/mod.ts";
import type { UnreadableRule } from "./unreadable.ts";
import type { Stream } from "./pipe_flow.ts";
import { baseName } from "../../platform/path.ts";
import { SQL_CLIENTS } from "../packs/mod.ts";

/** What the line wrote to one file. */
export interface WrittenFile {
  readonly texts: string[];
  /** The rule naming content that cannot be read (fetched or decoded), or null. */
  hidden: UnreadableRule | null;
}

/** Redirections that write stdout to a file. */
const WRITES = new Set([">", ">>", ">|", "&>", "&>>"]);

/** Programs that write their stdin to the files they name. */
const TEES = new Set(["tee"]);

/**
 * How an interpreter takes a program as an argument, by program name: the
 * code flag its rule reads, and the subcommand that runs a script file
 * (`deno run f`), whose code is then handed over as `deno eval`.
 */
const CODE_FLAGS: readonly (readonly [RegExp, string, string | null])[] = [
  [/^(python[0-9.]*|pypy[0-9.]*|py)$/, "-c", null],
  [/^(node|nodejs|bun|perl|ruby|tsx|ts-node|ts-node-esm|rscript|lua)$/, "-e", null],
  [/^php$/, "-r", null],
  [/^deno$/, "eval", "run"],
];

/**
 * The SQL files a SQL client is told to run: `psql -f f` (`--file=f`,
 * `-ff`), and `.read f` (sqlite3) or `source f`/`\\. f` (mysql) in its
 * statements.
 */
function sqlFiles(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    if (w === "-f" || w === "--file") out.push(words[++i] ?? "");
    else if (w.startsWith("--file=")) out.push(w.slice(7));
    else if (/^-f./.test(w)) out.push(w.slice(2));
    for (const m of w.matchAll(/(?:^|[\s;])(?:\.read|source|\\\.)[ \t]+([^\s;]+)/g)) out.push(m[1]);
  }
  return out.filter((f) => f !== "");
}

/** Schedulers that run a shell script file later: `at -f f now`, `batch -f f`. */
const FILE_SCHEDULERS = new Set(["at", "batch"]);

/** The options of `at` and `batch` that take a value; `-f` names the script. */
const SCHEDULER_OPTIONS = { short: { f: "value", q: "value", t: "value" } } as const;

/** Deno's options that take the next word as their value. */
const DENO_VALUED = new Set(["--config", "-c", "--import-map", "--lock", "--env-file", "--cert"]);

/** The key a path is known by: `./s.sh` and `s.sh` are one file. */
function fileKey(path: string): string {
  return path.replace(/^(\.\/)+/, "");
}

/** The files a fetcher saves: `curl -o f`, `curl -O URL`, `wget URL`, `wget -O f`. */
function fetchedFiles(words: readonly string[]): string[] {
  const name = programName(words[0] ?? "");
  const args = words.slice(1);
  const urlName = (): string[] =>
    args.filter((a) => /^[a-z]+:\/\//i.test(a)).map((u) => baseName(u.split(/[?#]/)[0]))
      .filter((n) => n !== "");
  if (name === "curl") {
    const scan = scanArgs(args, {
      short: {
        o: "value",
        H: "value",
        d: "value",
        X: "value",
        u: "value",
        A: "value",
        e: "value",
        E: "value",
        r: "value",
        T: "value",
        w: "value",
        K: "value",
        b: "value",
        c: "value",
        D: "value",
        F: "value",
        m: "value",
      },
      long: { output: "value" },
    });
    const named = [
      ...scan.shorts.filter((o) => o.letter === "o").map((o) => o.value),
      ...scan.longs.filter((l) => l.name === "output").map((l) => l.value),
    ].filter((v): v is string => v !== null && v !== "-");
    const remote = scan.shorts.some((o) => o.letter === "O") ||
      scan.longs.some((l) => l.name === "remote-name");
    return [...named, ...(remote ? urlName() : [])];
  }
  if (name === "wget") {
    const scan = scanArgs(args, {
      short: {
        O: "value",
        o: "value",
        a: "value",
        P: "value",
        e: "value",
        U: "value",
        t: "value",
        T: "value",
        w: "value",
      },
      long: { "output-document": "value" },
    });
    const named = [
      ...scan.shorts.filter((o) => o.letter === "O").map((o) => o.value),
      ...scan.longs.filter((l) => l.name === "output-document").map((l) => l.value),
    ].filter((v): v is string => v !== null);
    if (named.includes("-")) return named.filter((n) => n !== "-");
    return named.length > 0 ? named : urlName();
  }
  return [];
}

/** The files one line writes, in the order it writes them. */
export class LineFiles {
  private readonly files = new Map<string, WrittenFile>();

  private add(path: string, texts: readonly string[], hidden: UnreadableRule | null): void {
    const key = fileKey(path);
    const file = this.files.get(key) ?? { texts: [], hidden: null };
    for (const t of texts) file.texts.push(t);
    file.hidden ??= hidden;
    this.files.set(key, file);
  }

  /**
   * Records what the command `words` of `seg` writes to files: its output
   * (`output`, with `outputHidden` naming unreadable output) through
   * redirections, the stdin it copies (`tee f`, `cat > f`), and what a
   * fetcher saves.
   */
  record(
    seg: Segment,
    words: readonly string[],
    output: readonly string[],
    outputHidden: UnreadableRule | null,
    stdin: Stream,
  ): void {
    for (const r of seg.redirects) {
      if (!WRITES.has(r.op) || (r.fd !== null && r.fd !== "1")) continue;
      // Programs that copy their input (`cat > f <<EOF`) write what they read.
      this.add(r.target.text, [...output, ...stdin.texts], outputHidden ?? stdin.hidden);
    }
    if (TEES.has(programName(words[0] ?? ""))) {
      for (const a of words.slice(1)) {
        if (!a.startsWith("-")) this.add(a, stdin.texts, stdin.hidden);
      }
    }
    for (const f of fetchedFiles(words)) this.add(f, [], "fetched-script");
  }

  /** The file at `path` as the line wrote it, or undefined when it wrote none there. */
  get(path: string): WrittenFile | undefined {
    return this.files.size === 0 ? undefined : this.files.get(fileKey(path));
  }

  /** Whether the line wrote any file. */
  get empty(): boolean {
    return this.files.size === 0;
  }
}

/** A file a command runs: read as a Bash script, or as an interpreter's program with its code flag. */
export interface FileRun {
  readonly path: string;
  /** `null` for a shell script; else the program and the flag that takes code. */
  readonly interpreter: { readonly name: string; readonly flag: string } | null;
}

/**
 * The files a command runs as programs: the scripts its shells run
 * (`scriptFiles`), what `source` or `.` reads, the command word itself
 * when it is a path (`./s.sh`), and an interpreter's script operand.
 */
export function filesRun(
  commands: readonly { words: readonly string[] }[],
  scriptFiles: readonly string[],
): FileRun[] {
  const out: FileRun[] = scriptFiles.map((path) => ({ path, interpreter: null }));
  for (const { words } of commands) {
    const first = words[0] ?? "";
    const name = programName(first);
    if ((name === "source" || name === ".") && words[1] !== undefined) {
      out.push({ path: words[1], interpreter: null });
    } else if (first.includes("/")) out.push({ path: first, interpreter: null });
    if (FILE_SCHEDULERS.has(name)) {
      for (const o of scanArgs(words.slice(1), SCHEDULER_OPTIONS).shorts) {
        if (o.letter === "f" && o.value) out.push({ path: o.value, interpreter: null });
      }
    }
    // A SQL client handed a file runs its statements as if given with `-c`.
    if (SQL_CLIENTS.has(name)) {
      for (const path of sqlFiles(words)) out.push({ path, interpreter: { name, flag: "-c" } });
    }
    const entry = CODE_FLAGS.find(([re]) => re.test(name));
    if (entry === undefined) continue;
    const [, flag, sub] = entry;
    let rest = words.slice(1);
    // `deno run f` and `deno f` both run the file.
    if (sub !== null && rest.find((w) => !w.startsWith("-")) === sub) {
      rest = rest.slice(rest.indexOf(sub) + 1);
    }
    const at = rest.findIndex((w, i) =>
      !w.startsWith("-") && !(sub !== null && i > 0 && DENO_VALUED.has(rest[i - 1]))
    );
    if (at >= 0 && !words.includes(flag)) {
      out.push({ path: rest[at], interpreter: { name, flag } });
    }
  }
  return out;
}
