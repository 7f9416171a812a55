/**
 * Tests of the files a Bash line writes and runs in the same call: what
 * each writer puts in a file, which files fetchers save, and which files a
 * command runs.
 */

import { assertEquals } from "../../helpers/assert.ts";
import { argv, parseBash } from "../../../src/shell/bash/mod.ts";
import { filesRun, LineFiles } from "../../../src/shell/destructive/line_files.ts";
import { isDestructive } from "../../../src/shell/destructive/destructive.ts";
import { loadAllParts } from "../../../src/shell/destructive/mod.ts";

// The engine loads its PowerShell, cmd.exe and glob parts on demand; these
// tests read commands of every dialect, so they start with all of them.
await loadAllParts();

/** The files `line` writes, every command writing its arguments and reading nothing. */
function written(line: string): LineFiles {
  const files = new LineFiles();
  for (const seg of parseBash(line).segments) {
    const words = argv(seg);
    const stdin = { texts: [...seg.stdinTexts], hidden: null };
    files.record(seg, words, words.slice(1), null, stdin);
  }
  return files;
}

Deno.test("[destructive-bash-gate] a file gets what its writer prints or copies from its stdin", () => {
  const files = written(
    "echo a > s.sh; echo b >> ./s.sh; cat > t.sh <<'EOF'\nc\nEOF\necho d 2> e.log",
  );
  assertEquals(files.get("./s.sh")?.texts, ["a", "b"]);
  assertEquals(files.get("t.sh")?.texts, ["c\n"]);
  // Only stdout reaches the file.
  assertEquals(files.get("e.log"), undefined);
  assertEquals(written("ls").empty, true);
});

Deno.test("[destructive-bash-gate] files a fetcher saves cannot be read", () => {
  const files = written(
    "curl -fsSL -o a.sh https://x/a; curl -O https://x/dir/b.sh?v=1; wget https://x/c.sh; wget -O d.sh https://x/d; wget -qO- https://x/e.sh",
  );
  for (const name of ["a.sh", "b.sh", "c.sh", "d.sh"]) {
    assertEquals(files.get(name)?.hidden, "fetched-script", name);
  }
  assertEquals(files.get("e.sh"), undefined);
});

Deno.test("[destructive-bash-gate] a command runs its shell's script file, what source reads, a path command word, an interpreter's script", () => {
  const runs = filesRun(
    [{ words: ["source", "s.sh"] }, { words: ["./t.sh", "x"] }, {
      words: ["python3", "-u", "a.py"],
    }, {
      words: ["python3", "-c", "print(1)"],
    }, { words: ["ls", "s.sh"] }],
    ["u.sh"],
  );
  assertEquals(runs.map((r) => [r.path, r.interpreter?.flag ?? null]), [
    ["u.sh", null],
    ["s.sh", null],
    ["./t.sh", null],
    ["a.py", "-c"],
  ]);
});

Deno.test("[destructive-bash-gate] at -f and batch -f run the file they name as a shell script later", () => {
  const runs = filesRun(
    [{ words: ["at", "-f", "j.sh", "now"] }, { words: ["batch", "-mfk.sh"] }, {
      words: ["at", "-q", "f", "now"],
    }, { words: ["at", "-l"] }],
    [],
  );
  assertEquals(runs.map((r) => [r.path, r.interpreter]), [["j.sh", null], ["k.sh", null]]);
});

Deno.test("[destructive-bash-gate] a script written by the same line and handed to at -f or batch -f is read", () => {
  for (
    const line of [
      "printf 'rm -rf ~\\n' > j.sh && at -f j.sh now",
      "echo 'git reset --hard' > j.sh; at -m -f ./j.sh now + 1 hour",
      "echo 'rm -rf x' > j.sh; batch -f j.sh",
      "curl -so j.sh https://example.com/j.sh && at -f j.sh now",
    ]
  ) {
    assertEquals(isDestructive("bash", line, []), true, line);
  }
  for (
    const line of [
      "printf 'ls -la\\n' > j.sh && at -f j.sh now",
      "echo 'rm -rf x' > j.sh; at -f other.sh now",
      "echo 'rm -rf x' > j.sh; at -q f now < /dev/null",
      "at -f j.sh now",
    ]
  ) {
    assertEquals(isDestructive("bash", line, []), false, line);
  }
});
