import { assertEquals } from "../../helpers/assert.ts";
import {
  decodeEscapes,
  echoOutputs,
  printfOutput,
  producedTexts,
} from "../../../src/shell/bash/printf.ts";

Deno.test("[destructive-bash-gate] printf writes its format with escapes decoded and arguments in place", () => {
  assertEquals(printfOutput("\\x72\\x6d", []), "rm");
  assertEquals(printfOutput("\\162\\155 -rf x", []), "rm -rf x");
  assertEquals(printfOutput("%s %s\\n", ["a", "b", "c"]), "a b\nc \n");
  assertEquals(printfOutput("%b", ["\\0162m"]), "rm");
  assertEquals(printfOutput("%c%c", ["rx", "mx"]), "rm");
  assertEquals(printfOutput("DR\\x4fP %d%%", ["5"]), "DROP 5%");
  // An escape in the format writes a literal `%`, never a conversion.
  assertEquals(printfOutput("\\x25s", ["x"]), "%s");
});

Deno.test("[destructive-bash-gate] echo writes its arguments as given, and decoded where a shell may decode them", () => {
  assertEquals(echoOutputs(["rm", "-rf", "x"]), ["rm -rf x"]);
  assertEquals(echoOutputs(["-e", "r\\x6d"]), ["rm", "r\\x6d"]);
  assertEquals(echoOutputs(["-n", "ls"]), ["ls"]);
  assertEquals(decodeEscapes("a\\\\b\\tc"), "a\\b\tc");
});

Deno.test("[destructive-bash-gate] only echo and printf count as producers; printf -v writes nothing", () => {
  assertEquals(producedTexts(["printf", "--", "%s", "rm"]), ["rm"]);
  assertEquals(producedTexts(["printf", "-v", "x", "rm"]), []);
  assertEquals(producedTexts(["cat", "file"]), null);
});
