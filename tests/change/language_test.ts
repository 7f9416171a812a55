/**
 * Supported extensions and their language codes.
 */

import { assertEquals } from "../helpers/assert.ts";
import { EXTENSION_LANGUAGE, languageOf } from "../../src/change/language.ts";

Deno.test("[questions-fit-the-change] exactly the supported extensions have a language", () => {
  assertEquals(
    Object.keys(EXTENSION_LANGUAGE).join(" "),
    ".js .mjs .cjs .jsx .ts .tsx .mts .cts .py .pyi .go .rs .java .kt .kts .cs .c .h .cc .cpp " +
      ".cxx .hpp .hh .hxx .sh .bash .zsh .ps1 .psm1 .bat .cmd",
  );
});

Deno.test("[questions-fit-the-change] each extension maps to its short lowercase code", () => {
  const got = Object.fromEntries(
    [
      "a.jsx",
      "a.mts",
      "a.pyi",
      "a.go",
      "a.rs",
      "A.java",
      "a.kts",
      "a.cs",
      "a.h",
      "a.hxx",
      "a.zsh",
      "a.psm1",
      "a.cmd",
    ]
      .map((p) => [p, languageOf("/x/" + p)]),
  );
  assertEquals(got, {
    "a.jsx": "js",
    "a.mts": "ts",
    "a.pyi": "py",
    "a.go": "go",
    "a.rs": "rs",
    "A.java": "java",
    "a.kts": "kt",
    "a.cs": "cs",
    "a.h": "c",
    "a.hxx": "cpp",
    "a.zsh": "sh",
    "a.psm1": "ps1",
    "a.cmd": "bat",
  });
});

Deno.test("[questions-fit-the-change] other names have no language", () => {
  for (
    const p of [
      "/p/README.md",
      "/p/a.rb",
      "/p/.bashrc",
      "/p/Makefile",
      "/p/a.json",
      "/p/a.ts/",
      "/p/a.toString",
      "/p/x.__proto__",
      "/p/x.constructor",
    ]
  ) {
    assertEquals(languageOf(p), null, p);
  }
});

Deno.test("[questions-fit-the-change] Windows paths and upper-case extensions are read", () => {
  assertEquals(languageOf("C:\\repo\\src\\Main.CS"), "cs");
  assertEquals(languageOf("C:\\repo.d\\run"), null);
});
