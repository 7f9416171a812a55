/**
 * A shell command cut into path-like pieces (`src/hook/shell_pieces.ts`):
 * the words, and the values the line's own variables give them.
 */
import { assertEquals } from "../helpers/assert.ts";
import { commandPieces } from "../../src/hook/shell_pieces.ts";
import { hitsOf } from "./shell_reader.ts";

/** The live pieces of a Bash command. */
function live(command: string): string[] {
  return commandPieces("bash", command).pieces.filter((p) => p.live).map((p) => p.text);
}

Deno.test("[self-protection] a word built from the line's own variables is also read as its values", () => {
  assertEquals(live('p=.cla; rm -rf "${p}ude"').includes(".claude"), true);
  assertEquals(live("printf -v p '%s%s' .cla ude; rm -rf \"$p\"").includes(".claude"), true);
  assertEquals(live('p=CLAUDE; rm -rf ".${p,,}"').includes(".claude"), true);
  assertEquals(live('p=.clXude; rm -rf "${p/X/a}"').includes(".claude"), true);
  assertEquals(live("p=$(echo .cla)ude; rm -rf $p").includes(".claude"), true);
  // Printed, the values stay data.
  assertEquals(live('p=.cla; echo "${p}ude"').includes(".claude"), false);
  // A variable from outside the line is no value the line gives: no piece but its spelling.
  assertEquals(live('rm -rf "${OUTSIDE}ude"').filter((p) => /^[^$].+ude$/.test(p)), []);
});

Deno.test("[self-protection] through the shell reader, a control path built from the line's variables is reached", () => {
  const reached = (command: string) =>
    hitsOf(command).map((h) => h.kind === "control" ? h.row.id : h.kind);
  for (
    const command of [
      'p=.cla; rm -rf "${p}ude"',
      "printf -v p '%s%s' .cla ude; rm -rf \"$p\"",
      'p=CLAUDE; rm -rf ".${p,,}/settings.json"',
      'd=.clXude; sed -i s/a/b/ "${d/X/a}/settings.json"',
      'x=.cla; x+=ude; rm -rf "$x"',
    ]
  ) {
    assertEquals(reached(command), ["claude-project-settings"], command);
  }
  assertEquals(reached('d=build; rm -rf "$d"'), []);
});

Deno.test("[self-protection] a container mount names its host folder before the colon", () => {
  const reached = (command: string) =>
    hitsOf(command).map((h) => h.kind === "control" ? h.row.id : h.kind);
  assertEquals(
    reached("docker run -v ~/.claude:/c alpine rm -rf /c/settings.json").length > 0,
    true,
  );
  assertEquals(reached('podman run --volume="$HOME/.gateguard:/s" alpine true').length > 0, true);
  assertEquals(reached("docker run -v $PWD/src:/src alpine rm -rf /src/x"), []);
});
