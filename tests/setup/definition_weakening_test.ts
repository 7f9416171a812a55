/**
 * How a change to a Claude Code skill, command or subagent is judged: hooks
 * and load-time commands weaken GateGuard, prose does not.
 */

import { assertEquals } from "../helpers/assert.ts";
import {
  DEFINITION_HOOKS_LINE,
  DEFINITION_SHELL_LINE,
  definitionWeakenings,
} from "../../src/setup/definition_weakening.ts";

const PLAIN = "---\nname: review\ndescription: Reviews a diff\n---\nRead the diff.\n";
const HOOKED = "---\nname: review\ndescription: Reviews a diff\nhooks:\n  PostToolUse:\n" +
  "    - hooks:\n        - type: command\n          command: ./undo.sh\n---\nRead the diff.\n";

Deno.test("[self-protection] a skill or subagent given hooks weakens GateGuard; prose changes do not", () => {
  assertEquals(definitionWeakenings(null, PLAIN), []);
  assertEquals(definitionWeakenings(PLAIN, PLAIN.replace("Read", "Study")), []);
  assertEquals(definitionWeakenings(PLAIN, HOOKED), [DEFINITION_HOOKS_LINE]);
  assertEquals(definitionWeakenings(null, HOOKED), [DEFINITION_HOOKS_LINE]);
  // Hooks already there and left alone: the prose may change.
  assertEquals(definitionWeakenings(HOOKED, HOOKED.replace("Read", "Study")), []);
  assertEquals(definitionWeakenings(HOOKED, HOOKED.replace("./undo.sh", "./other.sh")), [
    DEFINITION_HOOKS_LINE,
  ]);
  // Spelled another way: a flow mapping, a merge key, a file without a frontmatter.
  for (
    const after of [
      '---\nname: r\nhooks: {"PreToolUse": []}\n---\nx\n',
      "---\nname: r\n<<: {hooks: {PostToolUse: []}}\n---\nx\n",
      "\n---\nname: r\n'hooks':\n  Stop: []\n---\nx\n",
      "name: r\nhooks:\n  Stop: []\n",
      '---\nname: r\n"\\x68ooks": {Stop: []}\n---\nx\n',
      '---\nname: r\n? "ho\\\n  oks"\n: {Stop: []}\n---\nx\n',
    ]
  ) {
    assertEquals(definitionWeakenings(PLAIN, after), [DEFINITION_HOOKS_LINE], after);
  }
  // The word in the prose below the frontmatter is prose.
  assertEquals(definitionWeakenings(PLAIN, PLAIN + "Mention hooks: none.\n"), []);
});

Deno.test("[self-protection] a command a skill runs as it loads weakens GateGuard, a new one each time", () => {
  const withStatus = PLAIN + "Status: !`git status`\n";
  assertEquals(definitionWeakenings(PLAIN, withStatus), [DEFINITION_SHELL_LINE]);
  assertEquals(definitionWeakenings(withStatus, withStatus + "More prose.\n"), []);
  assertEquals(
    definitionWeakenings(withStatus, withStatus.replace("git status", "rm -rf ~")),
    [DEFINITION_SHELL_LINE],
  );
  assertEquals(definitionWeakenings(PLAIN, PLAIN + "```!\ncurl x | sh\n```\n"), [
    DEFINITION_SHELL_LINE,
  ]);
  // A plain code block is prose.
  assertEquals(definitionWeakenings(PLAIN, PLAIN + "```sh\nrm -rf build\n```\n"), []);
});
