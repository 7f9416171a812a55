/**
 * Exported names: each language's reader names what other modules can
 * use, beside the look-alikes it must not name (private, nested, in a
 * comment or a string).
 */

import { assertEquals } from "../helpers/assert.ts";
import {
  exportedNames,
  fileExportedNames,
  hasNameReader,
  MAX_EXPORTED_NAMES,
} from "../../src/change/surface_names.ts";
import { lexCode } from "../../src/change/code_lexer.ts";
import type { Language } from "../../src/change/language.ts";
import { loadAllLexers } from "../../src/change/code_lexer.ts";

// Each call loads its file's lexer; these tests lex every language.
await loadAllLexers();

function names(language: Language, text: string): string[] {
  return exportedNames(language, lexCode(language, text, { lineStates: true }));
}

const CASES: [Language, string, string[]][] = [
  [
    "ts",
    [
      "// export function commentedOut() {}",
      'const s = "export function inString() {}";',
      "const t = `",
      "export function inTemplate() {}",
      "`;",
      "export function parseWidget(a: string) {}",
      "export default class WidgetStore {}",
      "export const enum Mode { A }",
      "export type { Alpha, Beta as Gamma };",
      'export { fromElsewhere } from "./x";',
      "function privateThing() {}",
      "export async function* streamWidgets() {}",
      "export default function () {}",
      "export const $dollar = 1;",
      "exports.legacyName = 1;",
    ].join("\n"),
    [
      "parseWidget",
      "WidgetStore",
      "Mode",
      "Alpha",
      "Gamma",
      "streamWidgets",
      "$dollar",
      "legacyName",
    ],
  ],
  [
    "py",
    [
      '"""',
      "def in_docstring():",
      '"""',
      "def parse_widget():",
      "    def nested_thing():",
      "        pass",
      "async def fetch_widget():",
      "    pass",
      "class WidgetStore:",
      "    inner_attr = 1",
      "_private_name = 1",
      "MAX_WIDGETS = 3",
      '__version__ = "1"',
      "# def commented_out():",
    ].join("\n"),
    ["parse_widget", "fetch_widget", "WidgetStore", "MAX_WIDGETS"],
  ],
  [
    "go",
    [
      "package w",
      "func ParseWidget() {}",
      "func (w *Widget) RenderWidget() {",
      "\tvar LocalThing = 1",
      "}",
      "func helper() {}",
      "const (",
      "\tMaxWidgets = 3",
      "\tminWidgets = 1",
      ")",
      "type Widget struct {",
      "\tField int",
      "}",
    ].join("\n"),
    ["ParseWidget", "RenderWidget", "MaxWidgets", "Widget"],
  ],
  [
    "rs",
    [
      "pub fn parse_widget() {}",
      "fn private_fn() {}",
      "pub(crate) struct WidgetStore;",
      "pub const MAX_WIDGETS: u32 = 3;",
      "pub const unsafe fn const_widget() {}",
      "pub static mut GLOBAL_WIDGET: u8 = 0;",
      'pub extern "C" fn c_widget() {}',
      "// pub fn commented() {}",
      "pub use other::Thing;",
    ].join("\n"),
    ["parse_widget", "WidgetStore", "MAX_WIDGETS", "const_widget", "GLOBAL_WIDGET", "c_widget"],
  ],
  [
    "sh",
    'deploy_widget() {\n  :\n}\nfunction build_widget {\n  :\n}\nexport WIDGET_HOME=/x\necho "fake() {"\n',
    ["deploy_widget", "build_widget", "WIDGET_HOME"],
  ],
  [
    "ps1",
    "function Get-Widget {\n}\nfunction global:Set-Widget { }\nfunction private:Hide-Widget { }\nfilter Only-Widgets { }\n",
    ["Get-Widget", "Set-Widget", "Only-Widgets"],
  ],
  [
    "java",
    [
      "public class WidgetStore {",
      "  public Widget findWidget(int id) { return null; }",
      "  private void hidden() {}",
      "  void packagePrivate() {}",
      "  public static final int MAX_WIDGETS = 3;",
      "}",
    ].join("\n"),
    ["WidgetStore", "findWidget", "MAX_WIDGETS"],
  ],
  [
    "kt",
    [
      "class WidgetStore {",
      "  fun findWidget(id: Int) {",
      "    val localValue = 1",
      "  }",
      "}",
      "private fun hiddenFun() {}",
      "fun <T> List<T>.firstWidget(): T = first()",
      "val topWidget = 1",
    ].join("\n"),
    ["WidgetStore", "findWidget", "firstWidget", "topWidget"],
  ],
];

Deno.test("[prior-search-credit] each language's reader names the exported names, not private, nested, commented or quoted ones", () => {
  for (const [language, text, expected] of CASES) {
    assertEquals(names(language, text), expected, language);
  }
});

Deno.test("[prior-search-credit] languages without a name reader give none, by extension", () => {
  assertEquals(hasNameReader("/p/src/widget.c"), false);
  assertEquals(hasNameReader("/p/src/widget.md"), false);
  assertEquals(hasNameReader("/p/src/widget.TS"), true);
  assertEquals(fileExportedNames("/p/src/widget.c", "int parse_widget(void) { return 0; }\n"), []);
  assertEquals(fileExportedNames("/p/src/widget.py", "def parse_widget():\n    pass\n"), [
    "parse_widget",
  ]);
});

Deno.test("[prior-search-credit] a file's names are bounded, and text that is no code gives none", () => {
  const many = Array.from(
    { length: MAX_EXPORTED_NAMES + 50 },
    (_, i) => `export const name${i} = ${i};`,
  )
    .join("\n");
  assertEquals(names("ts", many).length, MAX_EXPORTED_NAMES);
  assertEquals(names("ts", "\u0000\uffff export\n{{{{\n"), []);
  assertEquals(names("py", "def\nclass\n= 1\n"), []);
});
