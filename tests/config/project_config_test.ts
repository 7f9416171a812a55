/**
 * The project file's keys: validation, unknown keys, the limits of what the
 * file may switch off, the starter text, and literal destructive phrases.
 */

import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { WorkBudget } from "../../src/platform/budget.ts";
import {
  type ConfigIssue,
  matchesDestructiveCommand,
  MAX_DOMAIN_TEXT,
  MAX_LIST_ENTRIES,
  MAX_REPORTED_ISSUES,
  parseProjectConfig,
  PROJECT_CONFIG_KEYS,
  type ProjectConfigResult,
  STARTER_CONFIG,
} from "../../src/config/project_config.ts";

import { positionAt, positionCursor } from "../../src/config/jsonc.ts";

function loaded(text: string): Extract<ProjectConfigResult, { ok: true }> {
  const r = parseProjectConfig(text);
  if (!r.ok) throw new Error(`unexpected error: ${r.error.message}`);
  return r;
}

const brief = (issues: ConfigIssue[]): string[] =>
  issues.map((i) => `${i.key}@${i.line}:${i.column} ${i.message}`);

Deno.test("[project-config] every key is read from a commented file", () => {
  const r = loaded(`{
  // project conventions
  "exemptGlobs": ["**/dist/**", "scratch/*.txt"],
  "fileGates": false,
  "destructiveShell": true,
  "routineShell": false,
  "fullDenials": 0,
  "maxDenials": 12,
  "destructiveCommands": ["terraform destroy"],
  "domainText": ["Dates are %Y/%m/%d %H:%M.", "Run \`make check\` before commits."],
}`);
  assertEquals(r.config, {
    exemptGlobs: ["**/dist/**", "scratch/*.txt"],
    fileGates: false,
    destructiveShell: true,
    routineShell: false,
    fullDenials: 0,
    maxDenials: 12,
    destructiveCommands: ["terraform destroy"],
    domainText: "Dates are %Y/%m/%d %H:%M.\nRun `make check` before commits.",
  });
  assertEquals([r.unknownKeys, r.invalid], [[], []]);
});

Deno.test("[project-config] unknown keys are listed with their position and never applied", () => {
  const r = loaded('{\n  "disabled": true,\n  "maxdenials": 1\n}');
  assertEquals(r.config, {});
  assertEquals(brief(r.unknownKeys), [
    "disabled@2:3 unknown key",
    "maxdenials@3:3 unknown key",
  ]);
});

Deno.test("[project-config] the file cannot turn off the destructive shell gate", () => {
  const r = loaded('{"destructiveShell": false}');
  assertEquals(r.config, {});
  assertEquals(brief(r.invalid), [
    "destructiveShell@1:22 the project file cannot turn off the destructive shell gate",
  ]);
});

Deno.test("[project-config] a value of the wrong shape is dropped and reported at the value", () => {
  const r = loaded(`{
  "fileGates": "no",
  "routineShell": 0,
  "fullDenials": -1,
  "maxDenials": 2.5,
  "exemptGlobs": "dist/**",
  "destructiveCommands": {},
  "domainText": 7
}`);
  assertEquals(r.config, {});
  assertEquals(brief(r.invalid), [
    "fileGates@2:16 expected true or false",
    "routineShell@3:19 expected true or false",
    "fullDenials@4:18 expected a whole number of 0 or more",
    "maxDenials@5:17 expected a whole number of 0 or more",
    "exemptGlobs@6:18 expected a list of strings",
    "destructiveCommands@7:26 expected a list of strings",
    "domainText@8:17 expected a string or a list of strings (one per line)",
  ]);
});

Deno.test("[project-config] bad list entries are dropped one by one, good ones kept", () => {
  const globs = Array.from({ length: MAX_LIST_ENTRIES + 1 }, (_, k) => `"g${k}"`).join(",");
  const r = loaded(`{"exemptGlobs": [1, "", "ok/**", "${"x".repeat(257)}"],
"destructiveCommands": ["make deploy", ";;", "${"w ".repeat(17)}"]}`);
  assertEquals(r.config, { exemptGlobs: ["ok/**"], destructiveCommands: ["make deploy"] });
  assertEquals(r.invalid.map((i) => `${i.key} ${i.message}`), [
    "exemptGlobs[0] expected a string",
    "exemptGlobs[1] empty glob",
    "exemptGlobs[3] longer than 256 characters",
    "destructiveCommands[1] no command words",
    "destructiveCommands[2] more than 16 words",
  ]);
  const many = loaded(`{"exemptGlobs": [${globs}]}`);
  assertEquals((many.config.exemptGlobs ?? []).length, MAX_LIST_ENTRIES);
  assertEquals(brief(many.invalid).map((s) => s.split("@")[0]), [
    `exemptGlobs[${MAX_LIST_ENTRIES}]`,
  ]);
});

Deno.test("[project-config] domain text is bounded and free of control, bidi-override and line-separator characters", () => {
  assertEquals(loaded('{"domainText": "  "}').config, {});
  const long = loaded(`{"domainText": "${"x".repeat(MAX_DOMAIN_TEXT + 1)}"}`);
  assertEquals(long.invalid.map((i) => i.message), [`longer than ${MAX_DOMAIN_TEXT} characters`]);
  for (const c of ["\\u001b", "\\u0085", "\\u009b", "\\u202e", "\\u2066", "\\u2028", "\\u2029"]) {
    const unsafe = loaded(`{"domainText": "a${c}b"}`);
    assertEquals(unsafe.invalid.map((i) => i.message), [
      "contains control, bidirectional-override or line-separator characters",
    ], c);
  }
  assertEquals(loaded('{"domainText": "a\\tb é ✓"}').config.domainText, "a\tb é ✓");
});

Deno.test("[project-config] 65 KB of invalid entries: a bounded report found in one pass", () => {
  const text = `{"exemptGlobs":[${Array(32_000).fill("1").join(",")}]}`;
  const r = loaded(text);
  assertEquals(r.invalid.length, MAX_REPORTED_ISSUES + 1);
  assertEquals(
    r.invalid[MAX_REPORTED_ISSUES].message,
    `${32_000 - MAX_REPORTED_ISSUES} more problems from here on, not listed`,
  );
  const cursor = positionCursor(text);
  for (let offset = 0; offset < text.length; offset += 7) cursor.at(offset);
  assert(cursor.scanned <= text.length, `${cursor.scanned}`);
  assertEquals(cursor.at(text.length), positionAt(text, text.length));
});

Deno.test("[project-config] a file that is not one object is a syntax error at the value", () => {
  const r = parseProjectConfig('\n  ["exemptGlobs"]');
  assertEquals(r.ok ? null : [r.error.line, r.error.column, r.error.message], [
    2,
    3,
    "the file must hold one object ({ ... })",
  ]);
  const dup = parseProjectConfig('{"maxDenials": 1,\n "maxDenials": 0}');
  assertEquals(dup.ok ? null : [dup.error.line, dup.error.column], [2, 2]);
});

Deno.test("[project-config] the starter file parses to nothing and mentions every key", () => {
  const r = loaded(STARTER_CONFIG);
  assertEquals([r.config, r.unknownKeys, r.invalid], [{}, [], []]);
  for (const key of PROJECT_CONFIG_KEYS) assertStringIncludes(STARTER_CONFIG, `"${key}"`);
  // Uncommenting every key line of the starter gives a valid file.
  const uncommented = STARTER_CONFIG.split("\n").map((line) => {
    const rest = line.startsWith("  // ") ? line.slice(5) : "";
    return /^( *"|\],)/.test(rest) ? `  ${rest}` : line;
  }).join("\n");
  const all = loaded(uncommented);
  assertEquals([all.unknownKeys, all.invalid], [[], []]);
  assertEquals(
    Object.keys(all.config).sort(),
    [...PROJECT_CONFIG_KEYS].sort(),
  );
});

Deno.test("[destructive-bash-gate] file phrases match whole words in order, never as regexes", () => {
  const phrases = ["terraform destroy", "kubectl delete ns", "rm.*"];
  const yes = [
    "terraform destroy -auto-approve",
    "cd infra && TF_LOG=1 terraform   destroy",
    "/usr/local/bin/terraform destroy",
    "'terraform' \"destroy\"",
    "TERRAFORM DESTROY",
    "echo ok;terraform destroy",
    "kubectl delete ns prod",
    "rm.* x",
  ];
  const no = [
    "terraform plan",
    "terraform destroyer",
    "terraform-destroy",
    "kubectl delete pod x",
    "rm -rf x",
    "destroy terraform",
  ];
  for (const c of yes) assert(matchesDestructiveCommand(c, phrases), c);
  for (const c of no) assert(!matchesDestructiveCommand(c, phrases), c);
  assert(!matchesDestructiveCommand("terraform destroy", []));
});

Deno.test("[destructive-bash-gate] phrase matching on a huge command costs words times phrases, counted", () => {
  const command = "terraform ".repeat(200_000);
  const phrases = Array.from({ length: 64 }, (_, k) => `terraform x${k}`);
  // A budget that only counts; the hook's own call budget is smaller than this work.
  const budget = new WorkBudget(Number.MAX_SAFE_INTEGER);
  assert(!matchesDestructiveCommand(command, phrases, budget));
  assertEquals(budget.exhausted(), null);
  // The characters once, then at each of the 200 000 words the 64 phrases of two words.
  assertEquals(budget.spent, command.length + 200_000 * 64 * 2);
  // A budget too small for the work fails closed: the command counts as matching.
  assert(matchesDestructiveCommand(command, phrases, new WorkBudget(1000)));
  assert(matchesDestructiveCommand(command, phrases, new WorkBudget(command.length + 10)));
});
