import { assertEquals } from "../helpers/assert.ts";
import type { CreditTarget, SearchRoots } from "../../src/evidence/credit.ts";
import { MemoryFs, ROOT } from "../session_logs/builder.ts";
import { credited, creditOf, missed, ROOTS, target } from "./harness.ts";
import { loadPowerShellReader } from "../../src/evidence/shell_lex.ts";

// The hook loads the PowerShell reader only for a turn holding a PowerShell call.
await loadPowerShellReader();

const SRC = `${ROOT}/src`;
const tokenizer = target(`${SRC}/tokenizer.js`);

function code(
  command: string,
  t: CreditTarget = tokenizer,
  opts: { roots?: SearchRoots; fs?: MemoryFs } = {},
): string | null {
  const res = creditOf([{ name: "PowerShell", input: { command } }], t, {
    roots: opts.roots ?? ROOTS,
    fs: opts.fs ?? new MemoryFs({}, [SRC]),
  });
  return res.credited ? "credit" : res.miss?.code ?? null;
}

Deno.test("[prior-search-credit] Get-ChildItem, gci, Select-String and sls segments credit", () => {
  assertEquals(
    creditOf([{
      name: "PowerShell",
      input: { command: "Get-ChildItem -Recurse -Filter *tokenizer*" },
    }], tokenizer),
    credited("PowerShell", "Get-ChildItem -Recurse -Filter *tokenizer*"),
  );
  for (
    const command of [
      "gci -r src *tokenizer*",
      "ls -Recurse src -Filter *tokenizer*",
      "Get-ChildItem -Depth 2 -Filter *tokenizer*",
      "Select-String -Pattern tokenizer -Path src\\*.js",
      "sls tokenizer src\\*.js",
      "rg tokenizer src",
      "Microsoft.PowerShell.Management\\Get-ChildItem -Recurse -Filter *tokenizer*",
    ]
  ) {
    assertEquals(code(command), "credit", command);
  }
});

Deno.test("[powershell-parameter-binding] parameters bind by prefix, by -Name:value and across comma lists", () => {
  assertEquals(code("gci -Recurse -Ex *.js -Filter *tokenizer*"), "excluded");
  assertEquals(code("gci -Recurse -Filter *tokenizer* -Exclude a, *.js"), "excluded");
  assertEquals(code("gci -Recurse -Exclude:a,*.js -Filter *tokenizer*"), "excluded");
  assertEquals(code("Get-ChildItem -Path:src -Recurse -Filter:*tokenizer*"), "credit");
  assertEquals(code("Get-ChildItem -Path:lib -Recurse -Filter:*tokenizer*"), "out-of-scope");
  assertEquals(code("gci -Recurse -Filter *tokenizer* src,lib"), "credit");
  // A quoted comma is not a list separator.
  assertEquals(code("gci -Recurse -Filter '*tokenizer*,x'"), "excluded");
  assertEquals(code("Get-ChildItem -Recurse:$false -Filter *tokenizer*"), "stdin-only");
});

Deno.test("[powershell-parameter-binding] an unresolvable parameter and its value are not stem sources", () => {
  assertEquals(code("gci -Recurse -Zork *tokenizer*"), null);
  // `-E` is ambiguous (ErrorAction, ErrorVariable, Exclude): it and its value are set aside.
  assertEquals(code("gci -Recurse -Filter *tokenizer* -E *.js"), "credit");
  // A quoted dash word is a positional argument, not a parameter.
  assertEquals(code("gci '-Recurse' -Filter *tokenizer*"), "out-of-scope");
});

Deno.test("[stdin-is-not-a-tree-search] PowerShell pipes, -InputObject and missing -Recurse read no tree", () => {
  assertEquals(code("gci -Recurse | sls tokenizer"), "stdin-only");
  assertEquals(code("Select-String tokenizer -InputObject $text"), "stdin-only");
  assertEquals(code("Get-ChildItem -Filter *tokenizer*"), "stdin-only");
  assertEquals(code("Get-Content src\\tokenizer.js"), "not-a-search");
});

Deno.test("[ambiguous-shell-is-not-evidence] backtick escapes, subexpressions and script blocks give nothing", () => {
  for (
    const command of [
      "gci -Recurse -Filter `*tokenizer*",
      "gci -Recurse $(Get-Location) -Filter *tokenizer*",
      "gci -Recurse (Get-Location) -Filter *tokenizer*",
      "gci -Recurse | Where-Object { $_.Name -like '*tokenizer*' }",
      "rg tokenizer src --% -g x",
      "gci -Recurse -Filter '*tokenizer*",
    ]
  ) {
    assertEquals(code(command), null, command);
  }
});

Deno.test("[directory-changes] PowerShell directory changes rebase or blind later operands", () => {
  assertEquals(code("cd src; gci -Recurse -Filter *tokenizer*"), "credit");
  assertEquals(code("Set-Location lib; gci -Recurse -Filter *tokenizer*"), "out-of-scope");
  assertEquals(code("Push-Location src; gci -Recurse -Filter *tokenizer*"), "out-of-scope");
  assertEquals(code("gci $env:SRC -Recurse -Filter *tokenizer*"), "out-of-scope");
  const moved = (cwd: string | null) =>
    creditOf(
      [
        { name: "PowerShell", input: { command: "Set-Location src" }, cwd: null },
        { name: "PowerShell", input: { command: "gci -Recurse -Filter *tokenizer*" }, cwd },
      ],
      tokenizer,
    );
  // Without a recorded cwd the search's directory is unknown; with one, it is known.
  assertEquals(moved(null).miss?.code, "out-of-scope");
  assertEquals(moved(`${ROOT}/src`).credited, true);
  assertEquals(moved(`${ROOT}/lib`).miss?.code, "out-of-scope");
});

Deno.test("[search-scope] PowerShell lookups of the target's own name are not searches", () => {
  assertEquals(code("gci -Recurse -Filter tokenizer.js"), "not-a-search");
  assertEquals(code("gci -Recurse -Include TOKENIZER.JS"), "not-a-search");
});

Deno.test("[new-file-detection] a positional Get-ChildItem path names a directory; -Path and -LiteralPath do not", () => {
  const fresh = target(`${SRC}/widget_factory.ts`, { isNewWrite: true });
  assertEquals(code("Get-ChildItem src", fresh), "credit");
  assertEquals(code("gci src\\", fresh), "credit");
  assertEquals(code("Get-ChildItem -Path src", fresh), null);
  assertEquals(code("gci -LiteralPath src", fresh), null);
  assertEquals(code("Get-ChildItem src -Exclude *.ts", fresh), "excluded");
});

Deno.test("[prior-search-credit] PowerShell keeps backslashes as path separators on Windows targets", () => {
  const win = target("C:/x/src/tokenizer.js", { windowsStyle: true });
  const roots = { toolCwd: "C:\\x", projectDirEnv: null, processCwd: "/" };
  for (
    const command of [
      "gci -Recurse C:\\x\\src -Filter *tokenizer*",
      "gci -Recurse src -Filter *tokenizer*",
      "Set-Location C:\\x\\src; gci -Recurse -Filter *tokenizer*",
      "sls tokenizer C:\\X\\SRC\\*.js",
    ]
  ) {
    assertEquals(code(command, win, { roots }), "credit", command);
  }
  assertEquals(code("gci -Recurse D:\\x\\src -Filter *tokenizer*", win, { roots }), "out-of-scope");
});

Deno.test("[closest-search-that-did-not-count] a PowerShell miss names the PowerShell tool", () => {
  assertEquals(
    creditOf([{ name: "PowerShell", input: { command: "sls tokenizer lib\\*.js" } }], tokenizer),
    missed("out-of-scope", "PowerShell", "sls tokenizer lib\\*.js"),
  );
});

Deno.test("[search-scope] Get-ChildItem -Depth counts subdirectory levels: -Depth 0 reads only the path's own files", () => {
  assertEquals(code("Get-ChildItem -Depth 0 -Filter *tokenizer*"), "out-of-scope");
  assertEquals(code("gci . -Recurse -Depth 0 -Filter *tokenizer*"), "out-of-scope");
  assertEquals(code("gci -Depth $d -Filter *tokenizer*"), "out-of-scope");
  // Benign look-alikes: deep enough, or the path is the target's own directory.
  assertEquals(code("Get-ChildItem -Depth 1 -Filter *tokenizer*"), "credit");
  assertEquals(code("gci src -Depth 0 -Filter *tokenizer*"), "credit");
});

Deno.test("[directory-changes] Invoke-Expression of a directory change leaves later operands unplaced", () => {
  assertEquals(code("iex 'Set-Location lib'; gci -Recurse -Filter *tokenizer*"), "out-of-scope");
  assertEquals(
    code("Invoke-Expression 'cd C:/elsewhere'; sls tokenizer -Path src/*.js"),
    "out-of-scope",
  );
  // Benign look-alike: code that moves nothing.
  assertEquals(code("iex 'Write-Host hi'; gci -Recurse -Filter *tokenizer*"), "credit");
});

Deno.test("[search-output] PowerShell output discarded, stored or counted earns no credit", () => {
  for (
    const command of [
      "gci -Recurse -Filter *tokenizer* | Out-Null",
      "gci -Recurse -Filter *tokenizer* > $null",
      "gci -Recurse -Filter *tokenizer* *> hits.txt",
      "$hits = gci -Recurse -Filter *tokenizer*",
      "gci -Recurse -Filter *tokenizer* | Measure-Object",
      "gci -Recurse -Filter *tokenizer* | Select-Object -First 0",
      "gci -Recurse -Directory -Filter *tokenizer*",
      "sls tokenizer -Path src/*.js -Quiet",
    ]
  ) {
    assertEquals(code(command), null, command);
  }
  // Benign look-alikes: errors discarded, output shown through pass-through cmdlets.
  for (
    const command of [
      "gci -Recurse -Filter *tokenizer* 2> $null",
      "gci -Recurse -Filter *tokenizer* | Select-Object -First 5",
      "gci -Recurse -Filter *tokenizer* | Sort-Object Name | Format-Table",
      "sls tokenizer -Path src/*.js -Quiet:$false",
      "gci -Recurse -File -Filter *tokenizer*",
    ]
  ) {
    assertEquals(code(command), "credit", command);
  }
});
