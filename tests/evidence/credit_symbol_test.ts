/**
 * Symbol credit: a content search for a name the target exports credits
 * it under the stem search's scope rules, each case beside the look-alike
 * that is refused.
 */

import { assertEquals } from "../helpers/assert.ts";
import { symbolSearchCredit } from "../../src/evidence/credit.ts";
import { MIN_SYMBOL_LENGTH } from "../../src/evidence/symbol.ts";
import { fileExportedNames } from "../../src/change/surface_names.ts";
import { WorkBudget } from "../../src/platform/budget.ts";
import { MemoryFs, ROOT } from "../session_logs/builder.ts";
import { type Call, ROOTS, scanOf, target } from "./harness.ts";
import { loadAllLexers } from "../../src/change/code_lexer.ts";
import { loadPowerShellReader } from "../../src/evidence/shell_lex.ts";

// The hook loads the PowerShell reader only for a turn holding a PowerShell call.
await loadPowerShellReader();

// Each call loads its file's lexer; these tests lex every language.
await loadAllLexers();

const SRC = `${ROOT}/src`;
const WIDGET = `${SRC}/widget.ts`;

const TS_TEXT = [
  "// export function commentedWidget() {}",
  'const note = "export function quotedWidget() {}";',
  "export function parseWidget(text: string): Widget {",
  "  return { text };",
  "}",
  "export class Widget {}",
  "function privateWidget() {}",
  "export function get() {}",
  "export const data = 1;",
  "export function main() {}",
  "export const id = 2;",
  "export function a() {}",
  "export function test() {}",
  "export const renderWidget = () => 1;",
  "",
].join("\n");

const bash = (command: string, extra: Partial<Call> = {}): Call => ({
  name: "Bash",
  input: { command },
  ...extra,
});
const grep = (input: Record<string, unknown>): Call => ({ name: "Grep", input });

/** Whether the calls credit `file` (default src/widget.ts) holding `text`. */
function credits(
  calls: Call[],
  opts: { file?: string; text?: string; fs?: MemoryFs; budget?: WorkBudget } = {},
): boolean {
  const file = opts.file ?? WIDGET;
  const scan = scanOf(calls, ROOTS.toolCwd);
  const fs = opts.fs ?? new MemoryFs({}, [ROOT, SRC]);
  const names = fileExportedNames(file, opts.text ?? TS_TEXT);
  return symbolSearchCredit(target(file), names, scan, ROOTS, fs, opts.budget).credited;
}

Deno.test("[prior-search-credit] a Grep or rg for an exported name credits the file that defines it", () => {
  assertEquals(credits([grep({ pattern: "parseWidget", path: SRC })]), true);
  assertEquals(credits([bash("rg -n parseWidget src")]), true);
  assertEquals(credits([bash("git grep -n renderWidget")]), true);
  assertEquals(credits([bash("grep -rn Widget src")]), true);
  // The same search names nothing this file defines.
  assertEquals(credits([bash("rg -n parseGadget src")]), false);
  // Another file defines the name; this one only uses it.
  assertEquals(
    credits([bash("rg parseWidget src")], {
      file: `${SRC}/gadget.ts`,
      text: "import { parseWidget } from './widget';\nexport const gadget = parseWidget('');\n",
    }),
    false,
  );
});

Deno.test("[prior-search-credit] a name in a comment or a string, or a private name, is no definition", () => {
  assertEquals(credits([bash("rg commentedWidget src")]), false);
  assertEquals(credits([bash("rg quotedWidget src")]), false);
  assertEquals(credits([bash("rg privateWidget src")]), false);
  const py = `${SRC}/widget.py`;
  const pyText =
    'def parse_widget():\n    pass\n\ndef _parse_widget():\n    """def doc_widget():"""\n';
  assertEquals(credits([bash("rg parse_widget src")], { file: py, text: pyText }), true);
  assertEquals(credits([bash("rg _parse_widget src")], { file: py, text: pyText }), false);
  assertEquals(credits([bash("rg doc_widget src")], { file: py, text: pyText }), false);
});

Deno.test("[prior-search-credit] a file whose stem is too generic to credit is credited by its exported names", () => {
  const utils = `${SRC}/utils.ts`;
  const text = "export function formatDate(d: Date): string {\n  return '';\n}\n";
  assertEquals(credits([bash("rg formatDate src")], { file: utils, text }), true);
  assertEquals(credits([bash("rg utils src")], { file: utils, text }), false);
  assertEquals(credits([bash("rg formatTime src")], { file: utils, text }), false);
});

Deno.test("[prior-search-credit] short and common names never credit a file", () => {
  for (const name of ["get", "data", "main", "id", "a", "test"]) {
    assertEquals(credits([bash(`rg -w ${name} src`)]), false, name);
  }
  assertEquals(MIN_SYMBOL_LENGTH, 4);
  const index = "export function index() {}\nexport function indexWidgets() {}\n";
  assertEquals(credits([bash("rg index src")], { text: index }), false);
  assertEquals(credits([bash("rg indexWidgets src")], { text: index }), true);
});

Deno.test("[prior-search-credit] a pattern that matches more than names is no symbol search", () => {
  for (const pattern of [".", ".*", "\\w+", "parseWidget|.", "parseWidget.*", "[parseWidget]"]) {
    assertEquals(credits([grep({ pattern, path: SRC })]), false, pattern);
  }
  for (const pattern of ["\\bparseWidget\\b", "parseWidget\\(", "parseWidget|renderWidget"]) {
    assertEquals(credits([grep({ pattern, path: SRC })]), true, pattern);
  }
  // The name must be spelled as the file spells it.
  assertEquals(credits([grep({ pattern: "parsewidget", path: SRC })]), false);
});

Deno.test("[prior-search-credit] the search's own syntax decides what its pattern looks for", () => {
  // Basic regexes separate alternatives with \|; a bare | is a literal bar.
  assertEquals(credits([bash("grep -rn 'parseWidget|gadget' src")]), false);
  assertEquals(credits([bash("grep -rn 'parseWidget\\|gadget' src")]), true);
  assertEquals(credits([bash("grep -rnE 'parseWidget|gadget' src")]), true);
  assertEquals(credits([bash("egrep -rn 'parseWidget|gadget' src")]), true);
  // Fixed strings take boundary marks literally.
  assertEquals(credits([bash("rg -F '\\bparseWidget\\b' src")]), false);
  assertEquals(credits([bash("rg -F parseWidget src")]), true);
  assertEquals(credits([bash("grep -rnw '\\bparseWidget\\b' src")]), true);
  // A `<` in a word reads as a redirection, whatever the quotes (see "Stdin is not a tree search").
  assertEquals(credits([bash("grep -rn '\\<parseWidget\\>' src")]), false);
});

Deno.test("[prior-search-credit] a search that shows what does not match, or reads its pattern from elsewhere, is no symbol search", () => {
  assertEquals(credits([bash("rg -v parseWidget src")]), false);
  assertEquals(credits([bash("rg -x parseWidget src")]), false);
  assertEquals(credits([bash("grep -rL parseWidget src")]), false);
  assertEquals(credits([bash("grep -r --invert-match parseWidget src")]), false);
  assertEquals(credits([bash("git grep --not -e parseWidget")]), false);
  assertEquals(credits([bash("git grep --all-match -e parseWidget -e renderWidget")]), false);
  assertEquals(credits([bash("ugrep -r -e gadget --not -e parseWidget src")]), false);
  assertEquals(credits([bash("git grep -e parseWidget -e renderWidget")]), true);
  assertEquals(credits([bash("rg -f names.txt src")]), false);
  assertEquals(credits([bash("rg -l parseWidget src")]), true);
  assertEquals(credits([bash("grep -rl parseWidget src")]), true);
});

Deno.test("[prior-search-credit] a symbol search follows the stem search's scope rules", () => {
  assertEquals(credits([bash("rg parseWidget lib")]), false);
  assertEquals(credits([bash("rg parseWidget src/widget.ts")]), false);
  assertEquals(credits([bash("rg -t py parseWidget src")]), false);
  assertEquals(credits([bash("rg -t ts parseWidget src")]), true);
  assertEquals(credits([bash("rg -g '!widget.ts' parseWidget src")]), false);
  assertEquals(credits([bash("rg -q parseWidget src")]), false);
  assertEquals(credits([bash("rg parseWidget src > /dev/null")]), false);
  assertEquals(credits([bash("test -d src && rg parseWidget src")]), false);
  assertEquals(credits([bash("cd src && rg parseWidget .")]), true);
  assertEquals(credits([bash("cd lib && rg parseWidget .")]), false);
  assertEquals(credits([bash("cat src/widget.ts | grep parseWidget")]), false);
  assertEquals(credits([{ ...bash("rg parseWidget src"), sameBatch: true }]), false);
  assertEquals(credits([{ ...bash("rg parseWidget src"), error: true }]), false);
});

Deno.test("[prior-search-credit] rg skips a hidden or ignored file for a symbol as for a stem", () => {
  const hidden = `${ROOT}/.config/widget.ts`;
  assertEquals(credits([bash("rg parseWidget .")], { file: hidden }), false);
  assertEquals(credits([bash("rg --hidden parseWidget .")], { file: hidden }), true);
  const fs = new MemoryFs({ [`${ROOT}/.gitignore`]: "src/\n" }, [ROOT, SRC, `${ROOT}/.git`]);
  assertEquals(credits([bash("rg parseWidget .")], { fs }), false);
  assertEquals(credits([bash("rg --no-ignore parseWidget .")], { fs }), true);
});

Deno.test("[prior-search-credit] exported names of each language read by the surface readers", () => {
  const cases: [string, string, string, string][] = [
    [
      "widget.go",
      "package w\nfunc ParseWidget() {}\nfunc parseLocal() {}\n",
      "ParseWidget",
      "parseLocal",
    ],
    ["widget.rs", "pub fn parse_widget() {}\nfn parse_local() {}\n", "parse_widget", "parse_local"],
    ["widget.sh", "deploy_widget() {\n  :\n}\n", "deploy_widget", "deploy_other"],
  ];
  for (const [name, text, exported, hidden] of cases) {
    const file = `${SRC}/${name}`;
    assertEquals(credits([bash(`rg ${exported} src`)], { file, text }), true, exported);
    assertEquals(credits([bash(`rg ${hidden} src`)], { file, text }), false, hidden);
  }
  // A language without a reader gives no names.
  assertEquals(
    credits([bash("rg parse_widget src")], {
      file: `${SRC}/widget.c`,
      text: "int parse_widget(void) { return 0; }\n",
    }),
    false,
  );
});

Deno.test("[prior-search-credit] Select-String for a PowerShell function credits its script, not with -NotMatch", () => {
  const file = `${SRC}/widget.ps1`;
  const text = "function Get-Widget {\n}\nfunction private:Hide-Widget {\n}\n";
  const ps = (command: string): Call => ({ name: "PowerShell", input: { command } });
  assertEquals(
    credits([ps("Select-String -Pattern Get-Widget -Path src/*.ps1")], { file, text }),
    true,
  );
  assertEquals(
    credits([ps("Select-String -Pattern Get-Widget -Path src/*.ps1 -NotMatch")], { file, text }),
    false,
  );
  assertEquals(
    credits([ps("Select-String -Pattern Hide-Widget -Path src/*.ps1")], { file, text }),
    false,
  );
});

Deno.test("[prior-search-credit] symbol credit parses only content searches naming an exported name, within the budget", () => {
  const none = new WorkBudget();
  assertEquals(
    credits([bash("ls src"), bash("npm test"), bash("rg parseGadget src")], { budget: none }),
    false,
  );
  assertEquals(none.spent, 0);
  const some = new WorkBudget();
  assertEquals(credits([bash("rg parseWidget src")], { budget: some }), true);
  assertEquals(some.spent > 0, true);
  // A budget that cannot pay for parsing the search credits nothing.
  const small = new WorkBudget(10);
  assertEquals(credits([bash("rg parseWidget src")], { budget: small }), false);
  assertEquals(small.exhausted()?.what, "evidence");
});
