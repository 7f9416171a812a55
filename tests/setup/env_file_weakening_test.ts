/**
 * How a change to a `.env` file an agent loads at start is judged: a
 * variable that moves what GateGuard reads or how it starts weakens it,
 * ordinary keys do not.
 */

import { assertEquals } from "../helpers/assert.ts";
import {
  envFileLine,
  envFileWeakenings,
  movingVariablesIn,
  TERMINAL_PROGRAM_LINE,
  terminalSettingsWeakenings,
} from "../../src/setup/env_file_weakening.ts";

const PLAIN = "API_KEY=abc\nDATABASE_URL=postgres://localhost/app\n";

Deno.test("[self-protection] a .env change that sets a variable moving what GateGuard reads or how it starts weakens GateGuard", () => {
  assertEquals(envFileWeakenings(null, PLAIN), []);
  assertEquals(envFileWeakenings(PLAIN, PLAIN + "REDIS_URL=redis://x\n"), []);
  assertEquals(envFileWeakenings(null, "DENO_V8_FLAGS=--max-heap-size=2\n"), [
    "it sets DENO_V8_FLAGS for the agent's next start, where it reaches GateGuard's hook " +
    "before any of its checks run",
  ]);
  assertEquals(envFileWeakenings(PLAIN, PLAIN + "export LD_PRELOAD=/tmp/x.so\nPATH=/tmp/bin\n"), [
    "it sets LD_PRELOAD, PATH for the agent's next start, where they reach GateGuard's hook " +
    "before any of its checks run",
  ]);
  // Every family of the list, in any case and any syntax dotenv reads.
  for (
    const line of [
      "dyld_insert_libraries=/x",
      "GLIBC_TUNABLES=glibc.malloc.check=3",
      "MALLOC_ARENA_MAX: 1",
      'RUST_MIN_STACK="1"',
      "NODE_OPTIONS='--require /tmp/x.js'",
      "BASH_ENV=/tmp/x",
      "ENV=/tmp/x",
      "HOME=/tmp",
      "USERPROFILE=C:\\x",
      "DENO_DIR=/tmp/cache",
      "GEMINI_CLI_HOME=/tmp/fake",
      "XDG_CONFIG_HOME=/tmp/fake",
    ]
  ) {
    assertEquals(envFileWeakenings(PLAIN, `${PLAIN}${line}\n`).length, 1, line);
  }
});

Deno.test("[self-protection] a variable's name spelled with escapes (a JSON key) still counts", () => {
  const before = '{\n  "editor.tabSize": 2\n}\n';
  const after = '{\n  "terminal.integrated.env.linux": { "\\u0044ENO_V8_FLAGS": "x" }\n}\n';
  assertEquals(envFileWeakenings(before, after), [envFileLine(["DENO_V8_FLAGS"])]);
  assertEquals(envFileWeakenings(null, "A=\\x4cD_PRELOAD\n").length, 1);
});

Deno.test("[self-protection] a .env change that leaves the lines deciding such a variable alone is ordinary", () => {
  const held = "LD_LIBRARY_PATH=/opt/cuda/lib\nAPI_KEY=abc\n";
  assertEquals(envFileWeakenings(held, held.replace("abc", "def")), []);
  assertEquals(envFileWeakenings(held, held + "PORT=8080\n"), []);
  // Its value changed, or a quote line that can swallow or free the lines after it.
  assertEquals(envFileWeakenings(held, held.replace("cuda", "evil")).length, 1);
  const swallowed = 'NOTE="\nLD_PRELOAD=/tmp/x.so\n"\n';
  assertEquals(envFileWeakenings(swallowed, swallowed.replace('NOTE="\n', "")).length, 1);
  // Removing a runtime variable gives nothing; a file that names none afterwards is ordinary.
  assertEquals(envFileWeakenings(held, "API_KEY=abc\n"), []);
});

Deno.test("[self-protection] variables that move GateGuard are named once each, as words", () => {
  assertEquals(movingVariablesIn("LD_PRELOAD=a\nld_preload=b\nMY_PATH=x\nPATHS=y\n"), [
    "LD_PRELOAD",
  ]);
  assertEquals(movingVariablesIn("ENVIRONMENT=prod\nNODE_ENV=production\n"), []);
  // A lowercase word without an underscore is a key or prose; with one, it may be a name.
  assertEquals(movingVariablesIn('"terminal.integrated.env.linux": {}\n# set the path\n'), []);
  assertEquals(movingVariablesIn("ld_preload=/x\nPath=/y\n"), ["LD_PRELOAD", "PATH"]);
  assertEquals(
    envFileLine(["A", "B", "C", "D"]),
    "it sets A, B, C, … for the agent's next start, where they reach GateGuard's hook " +
      "before any of its checks run",
  );
});

Deno.test("[self-protection] VS Code's settings: a terminal profile counts with no variable named, other settings do not", () => {
  const plain = '{\n  "editor.tabSize": 2\n}\n';
  assertEquals(terminalSettingsWeakenings(plain, plain.replace("2", "4")), []);
  const profiled = '{\n  "terminal.integrated.defaultProfile.linux": "x"\n}\n';
  assertEquals(terminalSettingsWeakenings(plain, profiled), [TERMINAL_PROGRAM_LINE]);
  assertEquals(terminalSettingsWeakenings(profiled, profiled), []);
  // Spelled with escapes, and beside a variable that moves GateGuard: both findings.
  const escaped =
    '{\n  "terminal.integrated.\\u0073hellArgs.linux": ["-c"],\n  "terminal.integrated.env.linux": { "LD_PRELOAD": "/x" }\n}\n';
  assertEquals(terminalSettingsWeakenings(plain, escaped), [
    envFileLine(["LD_PRELOAD"]),
    TERMINAL_PROGRAM_LINE,
  ]);
});
