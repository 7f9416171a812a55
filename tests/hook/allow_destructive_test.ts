/**
 * The destructive gate's allowDestructive hatch, in process through the
 * shell gate: what an entry lets through, recorded as allowed-by-rule, and
 * what no entry ever covers however wide it is.
 */

import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { decide } from "../../src/hook/decide.ts";
import { allowDestructiveHint } from "../../src/questions/shell_texts.ts";
import { contextFor, MemoryFs, ROOT } from "./context.ts";

async function answer(command: string, allow: readonly string[]) {
  const ctx = contextFor("Bash", { command }, {
    env: { GATEGUARD_METRICS: "1" },
    fs: new MemoryFs({}, [ROOT, `${ROOT}/src`, `${ROOT}/dist`, "/tmp"]),
  });
  const d = await decide({ ...ctx, settings: { ...ctx.settings, allowDestructive: allow } });
  const event = d.events.at(-1);
  return {
    kind: d.outcome.kind,
    text: d.outcome.kind === "deny" ? d.outcome.text : "",
    decision: event?.decision,
    reason: event?.reason,
    rule: event?.rule,
  };
}

Deno.test("[allow-destructive] a command whose every path lies under an entry passes, recorded as allowed-by-rule", async () => {
  for (
    const [command, allow] of [
      ["rm -rf dist", ["dist/**"]],
      ["rm -rf dist && npm run build", ["dist/**"]],
      ["rm -rf dist/*", ["dist/**"]],
      ["rm -rf ./dist build", ["dist/**", "build/**"]],
      ["rm -rf node_modules/.cache", ["node_modules/.cache/**"]],
      ["rm -rf /tmp/gg-build", ["/tmp/**"]],
      [`rm -rf ${ROOT}/dist/out`, ["dist/**"]],
      ["git reset --hard", ["git reset --hard"]],
      ["git clean -fdx build", ["git clean -fdx build"]],
    ] as const
  ) {
    assertEquals(await answer(command, allow), {
      kind: "pass",
      text: "",
      decision: "allowed-by-rule",
      reason: "allowed-by-rule",
      rule: (await answer(command, [])).rule,
    }, command);
  }
  assertEquals((await answer("rm -rf dist", ["dist/**"])).rule, "core/rm-recursive");
});

Deno.test("[allow-destructive] no entry covers a path outside it, a path it cannot place, or a line that hides more", async () => {
  const denied: [string, string[]][] = [
    ["rm -rf dist src", ["dist/**"]],
    ["rm -rf dist/../src", ["dist/**"]],
    ['rm -rf "$OUT"/dist', ["dist/**"]],
    ["rm -rf $(pwd)/dist", ["dist/**"]],
    ["rm -rf d*", ["dist/**"]],
    ["rm -rf dist/.*", ["dist/**"]],
    ["rm -rf {dist,src}", ["dist/**"]],
    ["cd src && rm -rf dist", ["dist/**"]],
    ["ln -s .. dist/up && rm -rf dist/up/", ["dist/**"]],
    ['rm -rf dist; echo "rm -rf src" | sh', ["dist/**"]],
    ['bash -c "rm -rf src"', ["dist/**"]],
    ["sudo rm -rf dist", ["dist/**"]],
    ["rm -rf dist > src/log", ["dist/**"]],
    ["git clean -fdx && rm -rf src", ["git clean -fdx"]],
    ["git clean -fdx src", ["git clean -fdx"]],
    ["git clean -fdx", ["dist/**"]],
    ["rm -rf dist", ["src/**"]],
  ];
  for (const [command, allow] of denied) {
    const a = await answer(command, allow);
    assertEquals([a.kind, a.decision], ["deny", "destructive-deny"], command);
  }
});

Deno.test("[allow-destructive] home, a filesystem root, the project root, .git and the control surface are never covered", async () => {
  const everything = ["/**", "**", "~/**", "*"];
  for (
    const command of [
      "rm -rf /",
      "rm -rf /*",
      "rm -rf /home/u",
      "rm -rf /home",
      "rm -rf ~",
      "rm -rf ~/",
      `rm -rf ${ROOT}`,
      "rm -rf .",
      "rm -rf ./*",
      "rm -rf .git",
      "rm -rf .git/hooks",
      "rm -rf src/.git",
      "rm -rf .claude",
      "rm -rf .gateguard.jsonc",
      "rm -rf /home/u/.gateguard",
      "rm -rf /home/u/.claude/settings.json",
      // Over the whole project without naming it, as `rm -rf .` is.
      "find -delete",
      "git clean -fdx",
    ]
  ) {
    const a = await answer(command, [...everything, command]);
    // Control files are answered earlier still, by self-protection; neither passes.
    assertEquals(a.kind, "deny", command);
    assertEquals(
      ["destructive-deny", "self-protect-deny"].includes(a.decision ?? ""),
      true,
      command,
    );
  }
});

Deno.test("[allow-destructive] a destructive denial names the rule and the entry that would cover it, when one could", async () => {
  const build = await answer("rm -rf build", []);
  assertStringIncludes(build.text, "Matched rule: core/rm-recursive.");
  assertEquals(
    build.text.endsWith(`\n${allowDestructiveHint("core", "rm-recursive", "build/**")}`),
    true,
    build.text,
  );
  assertEquals(
    allowDestructiveHint("core", "rm-recursive", "build/**"),
    "If the user wants core/rm-recursive to run on these paths without a denial each time, " +
      'the user (not the agent) can add "build/**" to allowDestructive in the GateGuard user ' +
      "file (config.jsonc in its state folder) or in a trusted .gateguard.jsonc.",
  );
  for (
    const command of ["rm -rf ~", "rm -rf .git", `rm -rf ${ROOT}`, "rm -rf /tmp/x", "rm -rf $D"]
  ) {
    const a = await answer(command, []);
    assertEquals(a.kind, "deny", command);
    assertEquals(a.text.includes("allowDestructive"), false, command);
  }
});
