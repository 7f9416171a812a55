/**
 * Data words: file I/O, formats, serialisation, encodings, schemas, SQL,
 * stores, browser storage, dates and clock reads, and the shell extras.
 */

import { assertEquals } from "../helpers/assert.ts";
import { mentionsData } from "../../src/change/data_words.ts";
import { lexCode } from "../../src/change/code_lexer.ts";
import type { Language } from "../../src/change/language.ts";
import { loadAllLexers } from "../../src/change/code_lexer.ts";

// Each call loads its file's lexer; these tests lex every language.
await loadAllLexers();

function data(language: Language, text: string): boolean {
  return mentionsData(language, lexCode(language, text).lines);
}

const DATA: [Language, string][] = [
  ["js", "const s = fs.readFileSync(p);"],
  ["js", "await writeFile(p, s);"],
  ["ts", "const cfg = YAML.parse(text);"],
  ["ts", "const row = parseCsvLine(line);"],
  ["js", "const t = new Date();"],
  ["js", "const t = performance.now();"],
  ["ts", "sessionStorage.setItem(k, v);"],
  ["ts", "document.cookie = c;"],
  ["ts", "const db = await openDB(name);"],
  ["ts", "const b = Buffer.from(s, 'base64');"],
  ["ts", "const x = new TextDecoder('utf-8');"],
  ["ts", "const xhr = new XMLHttpRequest();"],
  ["py", "rows = cursor.fetchall()  # x\nq = 'insert into t values (1)'"],
  ["py", "data = pickle.loads(blob)"],
  ["py", "stamp = datetime.utcnow().isoformat()"],
  ["py", "text = Path(p).read_text(encoding='utf-8')"],
  ["py", "schema = UserSchema()"],
  ["go", "t := time.Now()"],
  ["go", "err := json.Unmarshal(b, &v)"],
  ["rs", "let s = std::fs::read_to_string(p)?;"],
  ["rs", "let now = SystemTime::now();"],
  ["java", "Instant i = Instant.now();"],
  ["cs", "var t = File.ReadAllText(p);"],
  ["c", 'FILE *f = fopen(p, "r");'],
  ["sh", "echo $x > out.txt"],
  ["sh", 'echo $x >> "$log"'],
  ["sh", "make &> build.log"],
  ["sh", "sort < input"],
  ["sh", "wget -q $url"],
  ["sh", "jq -r .a"],
  ["ps1", "Get-Content a.txt"],
  ["ps1", "iwr $u -OutFile a"],
  ["ps1", "'x' > out.txt"],
  ["bat", "type a > b.txt"],
];

const NO_DATA: [Language, string][] = [
  ["js", "update(state);"],
  ["js", "validate(candidate);"],
  ["js", "setTimeout(run, 10);"],
  ["js", "const runtime = detect();"],
  ["js", "// read the json file\nrun();"],
  ["py", "total = sum(values)"],
  ["go", "x := compute(y)"],
  ["sh", "make >/dev/null 2>&1"],
  ["sh", "cmd 2>&1 | less"],
  ["sh", "diff <(a) <(b)"],
  ["sh", "cat <<EOF\nx\nEOF"],
  ["sh", "echo '> not a redirect'"],
  ["ps1", "Write-Host hi 2> $null"],
  ["ps1", "Get-Process | Where-Object { $_.CPU -gt 1 }"],
  ["bat", "echo a >nul 2>NUL"],
];

for (const [language, text] of DATA) {
  Deno.test(`[data-handling] ${language}: ${JSON.stringify(text)} handles data`, () => {
    assertEquals(data(language, text), true);
  });
}

for (const [language, text] of NO_DATA) {
  Deno.test(`[data-handling] ${language}: ${JSON.stringify(text)} handles no data`, () => {
    assertEquals(data(language, text), false);
  });
}

Deno.test("[shell-scripts] curl, wget and jq count only in shell scripts", () => {
  assertEquals(data("sh", "curl $u"), true);
  assertEquals(data("js", "curl(u);"), false);
});

Deno.test("[data-handling] no lines, no data", () => {
  assertEquals(mentionsData("js", []), false);
});
