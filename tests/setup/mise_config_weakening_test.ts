/**
 * A project's mise config judged by the part mise loads without trust:
 * tasks, plain tool versions, `min_version`, and `[env]` entries that set
 * plain text to variables GateGuard neither reads nor is moved by. Anything
 * else a change adds is a finding; strings are followed across lines so no
 * line can pass for a task's.
 */
import { assertEquals } from "../helpers/assert.ts";
import {
  MISE_CONFIG_LINE,
  miseConfigWeakenings,
  placedLines,
} from "../../src/setup/mise_config_weakening.ts";

const BASE = '[tools]\nnode = "20"\n\n[tasks.test]\nrun = "npm test"\n';

Deno.test("[self-protection] the agent's ordinary mise work weakens nothing", () => {
  for (
    const after of [
      BASE.replace('"20"', '"22"'),
      `${BASE}\n[tasks.build]\nrun = """\nnpm run build\nrm -rf dist/cache\n"""\ndepends = ["test"]\n`,
      `${BASE}[env]\nAPI_URL = "http://localhost:3000"\nDEBUG = '1'\n`,
      `min_version = "2024.1.1"\n${BASE}`,
      `${BASE.replace('node = "20"', 'node = "20"\npython = ["3.11", "3.12"] # both')}`,
      `# a comment\n${BASE}`,
    ]
  ) {
    assertEquals(miseConfigWeakenings(BASE, after), [], after);
  }
  assertEquals(miseConfigWeakenings(null, BASE), []);
});

Deno.test("[self-protection] a change that sets what GateGuard reads, loads or runs code as mise loads is a finding", () => {
  for (
    const added of [
      '[env]\nDENO_V8_FLAGS = "--max-heap-size=2"\n',
      '[env]\nGATEGUARD_STATE_DIR = "/tmp/s"\n',
      '[env]\nPATH = "/tmp/bin"\n',
      '[env]\n_.source = "./x.sh"\n',
      '[env]\n_.file = ".env.local"\n',
      '[env]\n_.path = ["./bin"]\n',
      '[env]\n_ = { source = "./x.sh" }\n',
      "[env]\nA = \"{{ exec(command='sh x.sh') }}\"\n",
      '[env]\nA = """\nx\n"""\n',
      '[hooks]\nenter = "sh x.sh"\n',
      "[vars]\nx = \"{{ exec(command='id') }}\"\n",
      '[settings]\nenv_file = ".env.evil"\n',
      '[tools]\nnode = { version = "20", postinstall = "sh x.sh" }\n',
      '[plugins]\nnode = "https://example.com/evil.git"\n',
      '[tools]\nnode = "path:/tmp/evil"\n',
      "[tools]\nnode = ['20', 'ref:main']\n",
    ]
  ) {
    assertEquals(miseConfigWeakenings(BASE, `${BASE}\n${added}`), [MISE_CONFIG_LINE], added);
  }
});

Deno.test("[self-protection] a root key is read as TOML places it: under the table before it", () => {
  // At the top it is the root's (the project's environment); after a table, that table's.
  assertEquals(miseConfigWeakenings(BASE, `env._.source = "./x.sh"\n${BASE}`), [MISE_CONFIG_LINE]);
  assertEquals(miseConfigWeakenings(BASE, `${BASE}env.A = "x"\n`), []);
});

Deno.test("[self-protection] a multi-line string cannot make a line of [env] pass for a task's", () => {
  // The header inside the string is text; the line after it is in [env].
  const hidden = `${BASE}[env]\nA = '''\n[tasks.x]\n'''\n_.source = "./x.sh"\n`;
  assertEquals(miseConfigWeakenings(BASE, hidden), [MISE_CONFIG_LINE]);
  // A closing delimiter may follow quotes that end the text.
  const quoted = `${BASE}[env]\nB = """a""""\n[tasks.y]\nrun = "x"\n`;
  assertEquals(miseConfigWeakenings(BASE, quoted), [MISE_CONFIG_LINE]);
  const lines = placedLines('[tasks.a]\nrun = """\n[env]\n"""\nx = 1\n');
  assertEquals(lines.map((l) => [l.table, l.inString]), [
    ["tasks.a", false],
    ["tasks.a", false],
    ["tasks.a", true],
    ["tasks.a", true],
    ["tasks.a", false],
    ["tasks.a", false],
  ]);
});

Deno.test("[self-protection] a line already there is no finding; moving it under another table is", () => {
  const before = `${BASE}[env]\n_.source = "./x.sh"\n`;
  assertEquals(miseConfigWeakenings(before, before.replace('"22"', '"20"')), []);
  assertEquals(miseConfigWeakenings(before, `${before}[tasks.z]\nrun = "x"\n`), []);
  // The same text under [env] instead of a task's table.
  const task = `${BASE}[tasks.s]\nrun = ["a", "b"]\n`;
  assertEquals(miseConfigWeakenings(task, task.replace("[tasks.s]", "[env]")), [MISE_CONFIG_LINE]);
});
