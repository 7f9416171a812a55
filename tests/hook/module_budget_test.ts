/**
 * Module budgets per call class, counted in a real hook process started as
 * the from-source install starts it (`deno run` with the binary's flags):
 * the modules `deno run` reads and the ones it evaluates, from Deno's debug
 * log. A budget is a count of work, never a time; it fails when a change
 * makes a kind of call load code it does not need.
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import { CLI_ARGV, denoDir, REPO_ROOT } from "../helpers/cli.ts";
import { tempDir } from "../helpers/temp.ts";
import { type ModuleCensus, moduleCensus } from "../../scripts/module_census.ts";
import { BUNDLE_DIR, sourceTreeArgv } from "../../src/platform/permissions.ts";
import { SEPARATE_ENTRIES } from "../../scripts/bundle.ts";
import { assistant, jsonl, prompt, result } from "../session_logs/builder.ts";

const SRC_HREF = new URL("../../src/", import.meta.url).href;
const BUNDLE_HREF = new URL(`../../${BUNDLE_DIR}/`, import.meta.url).href;

/** The source tree run as it is: what each call class reaches, module by module. */
const TREE_ARGV = sourceTreeArgv(Deno.execPath(), REPO_ROOT);

/**
 * Most modules one call of each class may read (and so evaluate). Measured
 * on 2026-12-05 before self-protection: 64, 93 and 93 (docs/architecture.md);
 * a read-only command stopped loading the destructive engine and its packs
 * later that day (59, then 55 without the PowerShell parser), and a file
 * call all lexers but its language's (64).
 * A file call and a shell command that may write now also read GateGuard's
 * control surface (control/, the path modules, hook/shell_protect.ts or
 * hook/self_protection.ts); a read-only command does not. The margin lets a
 * feature add a module or two, and still fails long before a call reads the
 * whole tree again (195 modules with string-literal lazy imports).
 * 2026-12-06: a file call also reads the `.env` reader (cli/hook.ts) and the
 * hook-script reader (control/hook_scripts.ts), both small and both part of
 * self-protection: 69. Later that day the control surface's table and its
 * resolution were split to keep each file under 700 lines (the start-up
 * rows, the bases), no code added to the call: 71.
 */
const BUDGET = {
  "first-touch Edit": 72,
  "routine Bash": 62,
  "destructive Bash": 104,
} as const;

/** The failure message: how many, the budget, and which modules, so the cause is plain. */
function over(run: ModuleCensus, budget: number): string {
  return `${run.read.length} modules read, budget ${budget}: ${run.read.join(" ")}`;
}

async function census(
  toolName: string,
  input: Record<string, string>,
  form: "tree" | "bundle" = "tree",
  transcript?: (project: string) => string,
): Promise<ModuleCensus> {
  const home = await tempDir({ prefix: "gateguard-modules-" });
  await Deno.mkdir(`${home}/project/src`, { recursive: true });
  await Deno.writeTextFile(`${home}/project/src/app.py`, "x = 1\n");
  const cache = await denoDir();
  const log = `${home}/transcript.jsonl`;
  if (transcript) await Deno.writeTextFile(log, transcript(`${home}/project`));
  const payload = JSON.stringify({
    session_id: "budget",
    cwd: `${home}/project`,
    hook_event_name: "PreToolUse",
    tool_name: toolName,
    tool_input: Object.fromEntries(
      Object.entries(input).map(([k, v]) => [k, v.replace("$P", `${home}/project`)]),
    ),
    ...(transcript ? { transcript_path: log, prompt_id: "p-1", tool_use_id: "t2" } : {}),
  });
  return moduleCensus(form === "tree" ? TREE_ARGV : [...CLI_ARGV], payload, {
    HOME: home,
    GATEGUARD_STATE_DIR: `${home}/state`,
    CLAUDE_PROJECT_DIR: `${home}/project`,
    ...(cache ? { DENO_DIR: cache } : {}),
  }, form === "tree" ? SRC_HREF : BUNDLE_HREF);
}

const folders = (mods: string[]) => [...new Set(mods.map((m) => m.split("/")[0]))].sort();

Deno.test("[lazy-loading] a first-touch Edit reads no shell, session-log, evidence or report module, within its budget", async () => {
  const run = await census("Edit", {
    file_path: "$P/src/app.py",
    old_string: "x = 1",
    new_string: "x = 2",
  });
  assertEquals(JSON.parse(run.stdout).hookSpecificOutput.permissionDecision, "deny");
  assert(run.read.length > 0, "the debug log named no module: the census cannot count");
  assertEquals(run.read, run.evaluated, "deno run read a module the call never ran");
  assertEquals(
    folders(run.read).filter((f) => ["shell", "session_logs", "evidence", "report"].includes(f)),
    [],
  );
  // A Python file loads the Python lexer, not the four others.
  assertEquals(
    run.read.filter((m) => m.startsWith("change/lex_") && m !== "change/lex_emitter.ts"),
    [
      "change/lex_python.ts",
    ],
  );
  assert(run.read.length <= BUDGET["first-touch Edit"], over(run, BUDGET["first-touch Edit"]));
});

Deno.test("[lazy-loading] a routine Bash call reads no file-fact, change, evidence, session-log, report, destructive-engine, Bash-parser or option-table module, within its budget", async () => {
  const run = await census("Bash", { command: "ls" });
  assertEquals(run.stdout, "");
  assertEquals(run.read, run.evaluated, "deno run read a module the call never ran");
  assertEquals(
    folders(run.read).filter((f) =>
      ["file_facts", "evidence", "change", "session_logs", "report"].includes(f)
    ),
    [],
  );
  // A command the read-only check vouches for needs neither the engine nor its packs,
  // and a plain one (no quotes, expansions or operators) not even the Bash parser, nor,
  // for a program that takes any arguments, the option tables.
  assertEquals(
    run.read.filter((m) =>
      /^shell\/(destructive|packs|bash|programs)\/|^shell\/readonly\/rules/.test(m)
    ),
    [],
  );
  assert(run.read.length <= BUDGET["routine Bash"], over(run, BUDGET["routine Bash"]));
});

/**
 * The engine's parts a Bash `rm -rf` never needs: the other dialects'
 * readers, the git reader, the glob matcher, every pack but the core one the engine
 * reads directly, and the readers of folder writes and archives (`rm` writes into no folder).
 */
const OTHER_DIALECTS =
  /^(shell\/powershell\/|shell\/destructive\/detect_(powershell|cmd|git)\.ts$|glob\/|shell\/packs\/(?!(core|pack|manifest|mod)\.ts$)|hook\/(folder_writes|archive_names)\.ts$)/;

Deno.test("[lazy-loading] a destructive Bash call reads no PowerShell, cmd.exe, git, glob or optional pack module, within its budget", async () => {
  const run = await census("Bash", { command: "rm -rf build" });
  assertEquals(JSON.parse(run.stdout).hookSpecificOutput.permissionDecision, "deny");
  assertEquals(run.read, run.evaluated, "deno run read a module the call never ran");
  assertEquals(run.read.filter((m) => OTHER_DIALECTS.test(m)), []);
  assert(run.read.length <= BUDGET["destructive Bash"], over(run, BUDGET["destructive Bash"]));
});

Deno.test("[lazy-loading] a command that extracts an archive loads the folder-write and archive readers", async () => {
  const run = await census("Bash", { command: "tar -xf /nonexistent/a.tar" });
  assertEquals(JSON.parse(run.stdout).hookSpecificOutput.permissionDecision, "deny");
  for (const module of ["hook/folder_writes.ts", "hook/archive_names.ts"]) {
    assert(run.read.includes(module), `${module} not read: ${run.read.join(" ")}`);
  }
});

Deno.test("[lazy-loading] a Bash call that runs PowerShell loads the PowerShell reader and still denies", async () => {
  const run = await census("Bash", { command: "pwsh -c 'Remove-Item -Recurse -Force build'" });
  assertEquals(JSON.parse(run.stdout).hookSpecificOutput.permissionDecision, "deny");
  assert(run.read.includes("shell/destructive/detect_powershell.ts"), run.read.join(" "));
  assertEquals(run.read.filter((m) => /detect_cmd\.ts$|^glob\//.test(m)), []);
});

/** A turn that searched for the file with one shell call, then sent the Edit being judged. */
function searchedTurn(tool: string, command: string): (project: string) => string {
  return (project) =>
    jsonl(
      ...[
        prompt("edit app", "p-1"),
        ...assistant("m1", [{ id: "t1", name: tool, input: { command } }]),
        result("t1", "p-1"),
        ...assistant("m2", [{ id: "t2", name: "Edit", input: {} }]),
      ].map((record) => ({ ...record, cwd: project })),
    );
}

Deno.test("[lazy-loading] a first-touch Edit credited by a Bash search reads no PowerShell reader; after a PowerShell search it does", async () => {
  const edit = { file_path: "$P/src/app.py", old_string: "x = 1", new_string: "x = 2" };
  const bash = await census("Edit", edit, "tree", searchedTurn("Bash", "grep -rn app src"));
  assert(bash.read.includes("evidence/credit.ts"), bash.read.join(" "));
  assertEquals(bash.read.filter((m) => m.startsWith("shell/powershell/")), []);
  const ps = await census(
    "Edit",
    edit,
    "tree",
    searchedTurn("PowerShell", "Select-String -Path src/*.py -Pattern app"),
  );
  assert(ps.read.includes("shell/powershell/lexer.ts"), ps.read.join(" "));
});

/**
 * Most bundle files one call of each class may read, where a registered
 * from-source command runs (scripts/bundle.ts). Measured on 2026-12-05: 27
 * (one lexer chunk of five), 21 and 28. A file costs a read and an instantiation however small it is,
 * so a change that splits the hook's code into many more chunks fails here.
 */
const CHUNK_BUDGET = {
  "first-touch Edit": 12,
  "routine Bash": 8,
  "destructive Bash": 17,
} as const;

const BUNDLE_CASES: [keyof typeof CHUNK_BUDGET, string, Record<string, string>][] = [
  ["first-touch Edit", "Edit", {
    file_path: "$P/src/app.py",
    old_string: "x = 1",
    new_string: "x = 2",
  }],
  ["routine Bash", "Bash", { command: "ls" }],
  ["destructive Bash", "Bash", { command: "rm -rf build" }],
];

for (const [name, tool, input] of BUNDLE_CASES) {
  Deno.test(`[lazy-loading] from the bundle, a ${name} call reads only its chunks, within its budget`, async () => {
    const run = await census(tool, input, "bundle");
    assert(run.read.length > 0, "the debug log named no bundle file: the census cannot count");
    assertEquals(run.read, run.evaluated, "deno run read a chunk the call never ran");
    // The subcommands a person types are files of their own, never read by the hook.
    const separate = Object.values(SEPARATE_ENTRIES);
    assertEquals(run.read.filter((file) => separate.includes(file)), []);
    assert(
      run.read.length <= CHUNK_BUDGET[name],
      `${run.read.length} chunks read, budget ${CHUNK_BUDGET[name]}: ${run.read.join(" ")}`,
    );
  });
}
