/**
 * Reports syntax errors in PowerShell scripts, with the tree-sitter
 * PowerShell grammar (WebAssembly, from the npm registry). No PowerShell
 * runs on Linux CI here, so this is how `scripts/install.ps1` is kept
 * parseable: an unclosed brace, a stray quote or a broken expression shows
 * as an error or a missing token at its line and column.
 *
 * Usage: deno run --unstable-raw-imports --allow-read scripts/ps1_syntax.ts <file.ps1>...
 * Prints one line per problem; exits 1 when there is any.
 *
 * @module
 */

import { Language, type Node, Parser } from "web-tree-sitter";

/**
 * The grammar, imported as bytes. The specifier is not a literal so that
 * `deno check` (which has no --unstable-raw-imports) leaves it out of its
 * module graph; running this script needs the flag.
 */
async function grammar(): Promise<Uint8Array> {
  const specifier = "tree-sitter-powershell/tree-sitter-powershell.wasm";
  return (await import(specifier, { with: { type: "bytes" } })).default;
}

/** The syntax problems of one script, as `line:column what`. */
export async function ps1SyntaxErrors(source: string): Promise<string[]> {
  await Parser.init();
  const parser = new Parser();
  parser.setLanguage(await Language.load(await grammar()));
  const tree = parser.parse(source);
  if (tree === null) return ["1:1 the parser gave up"];
  const problems: string[] = [];
  const walk = (node: Node) => {
    if (node.isError || node.isMissing) {
      const at = `${node.startPosition.row + 1}:${node.startPosition.column + 1}`;
      problems.push(
        node.isMissing
          ? `${at} missing ${node.type}`
          : `${at} cannot parse ${JSON.stringify(node.text.slice(0, 40))}`,
      );
    }
    for (const child of node.children) if (child) walk(child);
  };
  walk(tree.rootNode);
  return problems;
}

if (import.meta.main) {
  let failed = false;
  for (const file of Deno.args) {
    for (const problem of await ps1SyntaxErrors(await Deno.readTextFile(file))) {
      console.error(`${file}:${problem}`);
      failed = true;
    }
  }
  Deno.exit(failed ? 1 : 0);
}
