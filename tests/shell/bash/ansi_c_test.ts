/**
 * Tests of `$'…'` decoding.
 *
 * @module
 */

import { assertEquals } from "../../helpers/assert.ts";
import { decodeAnsiC } from "../../../src/shell/bash/ansi_c.ts";

Deno.test("[destructive-bash-gate] $'…' bodies decode hex, unicode, octal, control and named escapes", () => {
  const body = String.raw`\x72\u006d -\162f \cA\n\?\q'rest`;
  assertEquals(decodeAnsiC(body, 0), { text: "rm -rf \x01\n?\\q", end: body.indexOf("'") + 1 });
});

Deno.test("[destructive-bash-gate] an unclosed $'… body, or one ending in a backslash, is not decoded", () => {
  assertEquals(decodeAnsiC(String.raw`rm -rf x`, 0), null);
  assertEquals(decodeAnsiC("rm\\", 0), null);
  assertEquals(decodeAnsiC(String.raw`\x`, 0), null);
});
