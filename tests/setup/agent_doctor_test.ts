import { tempDir } from "../helpers/temp.ts";
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { agentFindings, fileFindings } from "../../src/setup/agent_doctor.ts";
import { AGENT_REGISTRATIONS, geminiMatcherReaches } from "../../src/setup/agent_registrations.ts";
import { editAgentRegistration } from "../../src/setup/agent_edit.ts";
import { denoFs } from "../../src/platform/fs_port.ts";

const CMD = "/opt/bin/gateguard";

function registered(agent: keyof typeof AGENT_REGISTRATIONS): unknown {
  const out = editAgentRegistration(AGENT_REGISTRATIONS[agent], null, CMD, "add");
  if (!out.ok || out.text === null) throw new Error("no registration");
  return JSON.parse(out.text);
}

Deno.test("[doctor] what init writes for each agent checks out", () => {
  for (const reg of Object.values(AGENT_REGISTRATIONS)) {
    const findings = fileFindings(reg, "/p/hooks.json", registered(reg.agent) as never, CMD);
    assertEquals(findings.map((f) => f.level), ["ok"], reg.agent);
  }
});

Deno.test("[doctor] a handler without --agent, a narrow matcher or Cursor without failClosed fails", () => {
  const codex = {
    hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: CMD }] }] },
  };
  const texts = fileFindings(AGENT_REGISTRATIONS.codex, "/p/.codex/hooks.json", codex, CMD)
    .map((f) => `${f.level} ${f.text}`);
  assertEquals(texts.length, 2);
  assertStringIncludes(
    texts[0],
    "FAIL Codex CLI: /p/.codex/hooks.json runs GateGuard without '--agent codex'",
  );
  assertStringIncludes(texts[1], "does not reach Bash, apply_patch");
  const cursor = registered("cursor") as { hooks: { preToolUse: Record<string, unknown>[] } };
  cursor.hooks.preToolUse[0].failClosed = false;
  const c = fileFindings(AGENT_REGISTRATIONS.cursor, "/p/.cursor/hooks.json", cursor as never, CMD);
  assertEquals(c.map((f) => f.level), ["FAIL"]);
  assertStringIncludes(c[0].text, "lacks failClosed: true");
  // A file without GateGuard is not reported at all.
  assertEquals(fileFindings(AGENT_REGISTRATIONS.gemini, "/p/s.json", { ui: {} }, CMD), []);
});

Deno.test("[self-protection] an agent's from-source registration naming the checkout's deno.json fails", () => {
  for (const reg of Object.values(AGENT_REGISTRATIONS)) {
    const line = (config: string) =>
      `HOME=/r /usr/bin/deno run --quiet --config ${config} --permission-set=gateguard ` +
      "/r/.cache/bundle/main.js";
    const older = editAgentRegistration(reg, null, line("/r/deno.json"), "add");
    const current = editAgentRegistration(reg, null, line("/r/deno.run.json"), "add");
    if (!older.ok || older.text === null || !current.ok || current.text === null) {
      throw new Error(reg.agent);
    }
    const findings = fileFindings(reg, "/p/hooks.json", JSON.parse(older.text), line("/r/x"));
    assertEquals(findings.map((f) => f.level), ["FAIL"], reg.agent);
    assertStringIncludes(
      findings[0].text,
      `${reg.title}: /p/hooks.json: the registered command runs Deno with "/r/deno.json", so ` +
        "before GateGuard starts Deno reads the deno.json, deno.jsonc and package.json of every " +
        "folder above the checkout",
    );
    assertEquals(
      fileFindings(reg, "/p/hooks.json", JSON.parse(current.text), line("/r/x")).map((f) =>
        f.level
      ),
      ["ok"],
      reg.agent,
    );
  }
});

Deno.test("[doctor] a Gemini CLI registration that reaches no MCP tool that may change files is warned about, not failed", () => {
  const full = registered("gemini") as { hooks: { BeforeTool: unknown[] } };
  assertEquals(full.hooks.BeforeTool.length, 2);
  const older = { hooks: { BeforeTool: full.hooks.BeforeTool.slice(0, 1) } };
  const findings = fileFindings(AGENT_REGISTRATIONS.gemini, "/p/s.json", older as never, CMD);
  assertEquals(findings.map((f) => f.level), ["ok", "WARN"]);
  assertEquals(
    findings[1].text,
    "Gemini CLI: /p/s.json does not reach MCP tools that may change files " +
      "(mcp_filesystem_edit_file, mcp_filesystem_move_file), so an MCP server could write GateGuard's own files unseen; " +
      "run `gateguard init --agent gemini` (it registers them, looked at for GateGuard's own " +
      "files only).",
  );
});

Deno.test("[doctor] a Gemini CLI matcher is read as Gemini CLI reads it: an unanchored regular expression", () => {
  assertEquals(geminiMatcherReaches("write_file", "mcp_fs_write_file"), true);
  assertEquals(geminiMatcherReaches("^write_file$", "mcp_fs_write_file"), false);
  assertEquals(geminiMatcherReaches(" * ", "anything"), true);
  assertEquals(geminiMatcherReaches(undefined, "anything"), true);
  assertEquals(geminiMatcherReaches("(", "("), true, "one that does not compile is a plain name");
  assertEquals(geminiMatcherReaches(3, "replace"), false);
  // One catch-all entry reaches every tool, MCP ones included: no finding but ok.
  const all = {
    hooks: { BeforeTool: [{ matcher: ".*", hooks: [{ command: `${CMD} hook --agent gemini` }] }] },
  };
  const findings = fileFindings(AGENT_REGISTRATIONS.gemini, "/p/s.json", all as never, CMD);
  assertEquals(findings.map((f) => f.level), ["ok"]);
});

Deno.test("[doctor] only agents whose hook files register GateGuard are reported, each trust step once", async () => {
  const root = await tempDir();
  await Deno.mkdir(`${root}/.gemini`);
  await Deno.writeTextFile(`${root}/.gemini/settings.json`, JSON.stringify(registered("gemini")));
  await Deno.mkdir(`${root}/.cursor`);
  await Deno.writeTextFile(`${root}/.cursor/hooks.json`, "{ broken");
  const findings = await agentFindings(denoFs, root, root, CMD);
  assertEquals(findings.map((f) => f.level), ["ok", "info", "FAIL", "info"]);
  assertStringIncludes(findings[1].text, "Gemini CLI trust: ");
  assertStringIncludes(findings[2].text, `${root}/.cursor/hooks.json does not parse`);
  await Deno.remove(root, { recursive: true });
});
