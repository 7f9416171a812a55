/**
 * `gateguard explain`'s pure parts in process: its options, the payloads
 * `--command` and `--file` build, where a broken payload breaks, and the
 * plain-language summary. The CLI itself is driven in tests/e2e/explain_test.ts.
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import {
  builtPayload,
  parseExplainArgs,
  parsePayload,
  unknownEdit,
} from "../../src/cli/explain.ts";
import { plainSummary, REASON_WORDS, reasonWords } from "../../src/cli/explain_words.ts";
import { FILE_RULES } from "../../src/hook/file_rules.ts";
import { SHELL_RULES } from "../../src/hook/shell_gate.ts";

const DEFAULTS = {
  json: false,
  agent: "claude",
  payloadFile: null,
  command: null,
  shell: "bash",
  file: null,
} as const;

Deno.test("[order-of-checks] explain's options: one source of the call, --agent for payloads, --shell with --command", () => {
  assertEquals(parseExplainArgs([]), DEFAULTS);
  assertEquals(parseExplainArgs(["--help"]), null);
  assertEquals(parseExplainArgs(["--agent", "codex", "--json"]), {
    ...DEFAULTS,
    agent: "codex",
    json: true,
  });
  assertEquals(parseExplainArgs(["--agent=cursor", "--payload=p.json"]), {
    ...DEFAULTS,
    agent: "cursor",
    payloadFile: "p.json",
  });
  assertEquals(parseExplainArgs(["--command", "rm -rf x", "--shell", "powershell"]), {
    ...DEFAULTS,
    command: "rm -rf x",
    shell: "powershell",
  });
  assertEquals(parseExplainArgs(["--file", "src/a.ts"]), { ...DEFAULTS, file: "src/a.ts" });
  const errors: [string[], string][] = [
    [["--agent", "vim"], "--agent takes one of claude, codex, gemini, copilot, cursor"],
    [["--shell", "zsh", "--command", "ls"], "--shell takes bash or powershell"],
    [["--shell", "bash"], "--shell goes with --command"],
    [
      ["--command", "ls", "--file", "a"],
      "--payload, --command and --file each name the call: give one",
    ],
    [
      ["--command", "ls", "--agent", "codex"],
      "--command and --file build a Claude Code call; --agent reads a payload",
    ],
    [["--file", "a", "--file", "b"], "--file is given twice"],
    [["--command"], "unknown or incomplete option '--command'"],
    [["--nope"], "unknown or incomplete option '--nope'"],
  ];
  for (const [args, error] of errors) assertEquals(parseExplainArgs(args), error, args.join(" "));
});

Deno.test("[order-of-checks] --command builds a Claude Code shell call; --file an Edit of an existing file, a Write of a new one", () => {
  const none = { command: null, shell: "bash", file: null } as const;
  const exists = (path: string) => path === "/p/src/a.ts";
  assertEquals(builtPayload({ ...none, command: "npm test" }, "/p", exists), {
    hook_event_name: "PreToolUse",
    cwd: "/p",
    tool_name: "Bash",
    tool_input: { command: "npm test" },
  });
  assertEquals(
    builtPayload({ ...none, command: "gci", shell: "powershell" }, "/p", exists)?.tool_name,
    "PowerShell",
  );
  assertEquals(builtPayload({ ...none, file: "src/a.ts" }, "/p", exists), {
    hook_event_name: "PreToolUse",
    cwd: "/p",
    tool_name: "Edit",
    tool_input: { file_path: "/p/src/a.ts" },
  });
  assertEquals(builtPayload({ ...none, file: "/q/new.ts" }, "/p", exists), {
    hook_event_name: "PreToolUse",
    cwd: "/p",
    tool_name: "Write",
    tool_input: { file_path: "/q/new.ts", content: "" },
  });
  assertEquals(builtPayload(none, "/p", exists), null);
});

Deno.test("[order-of-checks] --file of an existing file is explained as an edit whose change is not known", () => {
  const edit = builtPayload({ command: null, shell: "bash", file: "/p/a.ts" }, "/p", () => true);
  assertEquals(unknownEdit({ file: "/p/a.ts" }, edit!), {
    kind: "file",
    touches: [{ path: "/p/a.ts", verb: "edit", change: { kind: "unreadable" } }],
  });
  // A payload given as it is, or a new file's Write, is read as the hook reads it.
  assertEquals(unknownEdit({ file: null }, edit!), undefined);
  const write = builtPayload({ command: null, shell: "bash", file: "/p/b.ts" }, "/p", () => false);
  assertEquals(unknownEdit({ file: "/p/b.ts" }, write!), undefined);
});

Deno.test("[order-of-checks] a payload that is not one JSON object is a problem naming where it breaks", () => {
  assertEquals(parsePayload('{"tool_name":"Bash",}'), {
    ok: false,
    problem: "the payload is not valid JSON: at line 1, column 21 (offset 20) " +
      "a double-quoted property name was expected",
  });
  assertEquals(parsePayload("[1]"), {
    ok: false,
    problem: "the payload is JSON but not an object",
  });
  assertEquals(parsePayload('{"tool_name":"Bash"}'), { ok: true, payload: { tool_name: "Bash" } });
  // A leading byte order mark is skipped, as the hook skips it.
  assertEquals(parsePayload('\ufeff{"tool_name":"Shell"}'), {
    ok: true,
    payload: { tool_name: "Shell" },
  });
});

Deno.test("[order-of-checks] every reason code of the order of checks has plain words", () => {
  for (const rule of [...FILE_RULES, ...SHELL_RULES]) {
    for (const reason of rule.reasons) {
      assert(Object.hasOwn(REASON_WORDS, reason), `${rule.id}: ${reason}`);
    }
  }
  assertEquals(
    reasonWords("near-miss:excluded"),
    "it is the first change to the file this session; the closest search of the turn did not count",
  );
  assertEquals(reasonWords("made-up"), "made-up");
});

Deno.test("[order-of-checks] the plain-language summary says what the hook would do and why", () => {
  const target = (tool: string, decision: string, reason: string) => ({ tool, decision, reason });
  assertEquals(
    plainSummary({
      tool: "Bash",
      gated: true,
      decision: "deny",
      targets: [target("Bash", "destructive-deny", "destructive")],
      destructive: { pack: "core", rule: "rm-recursive", destroys: "deletes a directory tree" },
    }),
    [
      "GateGuard would deny this call because the command is destructive: it deletes a " +
      "directory tree (rule core/rm-recursive).",
    ],
  );
  assertEquals(
    plainSummary({
      tool: "Edit",
      gated: true,
      decision: "note",
      targets: [target("Edit", "credit", "prior-search")],
    }),
    [
      "GateGuard would let this call through with a note to the agent because a search " +
      "earlier in this turn already covered the file.",
    ],
  );
  // A denial is explained by the targets that denied, each by its number.
  assertEquals(
    plainSummary({
      tool: "apply_patch",
      gated: true,
      decision: "deny",
      targets: [
        target("MultiEdit", "pass-checked", "checked"),
        target("MultiEdit", "deny", "sensitive"),
        target("MultiEdit", "deny", "first-touch"),
      ],
    }),
    [
      "GateGuard would deny this call:",
      "- target 2 (MultiEdit): because the file is sensitive (secrets, keys, credentials), " +
      "which is always asked about.",
      "- target 3 (MultiEdit): because it is the first change to the file this session and " +
      "no search earlier in the turn covered it.",
    ],
  );
  assertEquals(
    plainSummary({ tool: "Read", gated: false, decision: "pass", targets: [] }),
    [
      "GateGuard would let this call through: Read is not gated (not a tool GateGuard gates, " +
      "or its gate is switched off).",
    ],
  );
  assertEquals(
    plainSummary({ tool: "apply_patch", gated: true, decision: "deny", targets: [] }),
    ["GateGuard would deny this call: the call was turned away before any rule looked at it."],
  );
});

Deno.test("[self-protection] explain says why an MCP tool that may change files was asked about, or passed", () => {
  const foreign = (decision: "ask" | "pass") =>
    plainSummary({ tool: "mcp__filesystem__write_file", gated: true, decision, targets: [] });
  assertEquals(foreign("ask"), [
    "GateGuard would ask the user about this call because it names a file of GateGuard's " +
    "control surface, and mcp__filesystem__write_file is a tool GateGuard does not read, so " +
    "what it would leave there cannot be read first.",
  ]);
  assertEquals(foreign("pass"), [
    "GateGuard would let this call through: mcp__filesystem__write_file is a tool GateGuard " +
    "does not read; it is looked at only for GateGuard's own files, and it names none.",
  ]);
});
