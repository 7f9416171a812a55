/**
 * The `.env` files Gemini CLI and Codex CLI load at start, as part of the
 * control surface: a change that sets a variable the hook's runtime reads
 * before GateGuard runs (`DENO_V8_FLAGS`, `LD_PRELOAD`, …) is never passed
 * on a retry, by a file tool or the shell; ordinary keys go on to the
 * ordinary gates; plain shell writes are judged by the text they leave.
 * A project's mise config, whose environment a shell entering the folder
 * takes, is judged alike.
 */
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { projectFs, Session } from "./session.ts";
import { type MemoryFs, ROOT } from "./context.ts";
import { harmlessEnvWrites } from "../../src/hook/env_writes.ts";
import { bashSegments } from "../../src/hook/shell_pieces.ts";

const ASKING = { permission_mode: "default" };
const GEMINI_HOME = "/home/u/.gemini";

/** A project with `files`, on a machine where Gemini CLI has its home folder. */
function withGemini(files: Record<string, string> = {}): MemoryFs {
  const fs = projectFs(files);
  for (const dir of ["/home", "/home/u", GEMINI_HOME]) fs.dirs.add(dir);
  return fs;
}

/** The answers to `command` after the routine gate was used up. */
async function shell(fs: MemoryFs, command: string): Promise<{ kind: string; text: string }[]> {
  const session = new Session(fs);
  await session.call("Bash", { command: "true" }, ASKING);
  return [
    await session.call("Bash", { command }, ASKING),
    await session.call("Bash", { command }, ASKING),
  ];
}

Deno.test("[self-protection] writing a runtime variable into an agent's .env file is asked of the user, every time", async () => {
  const session = new Session(withGemini());
  const input = { file_path: `${ROOT}/.env`, content: "DENO_V8_FLAGS=--max-heap-size=2\n" };
  for (let i = 0; i < 2; i++) {
    const answer = await session.call("Write", input, ASKING);
    assertEquals(answer.kind, "ask");
    assertStringIncludes(
      answer.text,
      "it sets DENO_V8_FLAGS for the agent's next start, where it reaches GateGuard's hook " +
        "before any of its checks run",
    );
    assertStringIncludes(answer.text, "a .env file an agent loads when it starts");
  }
  // Where no person answers, a denial that sends the agent to the user.
  const bypass = await session.call("Write", input, { permission_mode: "bypassPermissions" });
  assertEquals(bypass.kind, "deny");
  assertStringIncludes(bypass.text, "retries included");
});

Deno.test("[self-protection] every .env file the agents load counts: above the project, in the home, under CODEX_HOME", async () => {
  const content = "LD_PRELOAD=/tmp/x.so\n";
  for (
    const path of [
      `${ROOT}/.gemini/.env`,
      "/work/.env",
      "/.env",
      "/home/u/.env",
      `${GEMINI_HOME}/.env`,
    ]
  ) {
    const answer = await new Session(withGemini()).call(
      "Write",
      { file_path: path, content },
      ASKING,
    );
    assertEquals(answer.kind, "ask", path);
  }
  const fs = projectFs();
  fs.dirs.add("/opt/codex");
  const codex = new Session(fs, { CODEX_HOME: "/opt/codex" });
  const answer = await codex.call("Write", { file_path: "/opt/codex/.env", content }, ASKING);
  assertEquals(answer.kind, "ask");
});

Deno.test("[self-protection] ordinary keys in a .env file go to the ordinary gate; without Gemini or Codex no .env counts", async () => {
  const session = new Session(withGemini());
  const input = { file_path: `${ROOT}/.env`, content: "API_KEY=abc\n" };
  const first = await session.call("Write", input, ASKING);
  assertEquals(first.kind, "deny");
  assertStringIncludes(first.text, "Before creating");
  assertEquals((await session.call("Write", input, ASKING)).kind, "pass");
  // No agent that loads .env files lives here: the file is the project's own business.
  const bare = new Session(projectFs());
  const planted = { file_path: `${ROOT}/.env`, content: "LD_PRELOAD=/tmp/x.so\n" };
  assertEquals((await bare.call("Write", planted, ASKING)).kind, "deny");
  assertEquals((await bare.call("Write", planted, ASKING)).kind, "pass");
});

Deno.test("[self-protection] a shell write to an agent's .env file counts unless its result can be read and sets no runtime variable", async () => {
  const files = { ".env.example": "API_KEY=\n", "evil.env": "LD_PRELOAD=/tmp/x.so\n" };
  const passes = ["cp .env.example .env", "echo API_KEY=abc >> .env", "cp -f evil.env other.txt"];
  for (const command of passes) {
    assertEquals(
      (await shell(withGemini(files), command)).map((a) => a.kind),
      ["pass", "pass"],
      command,
    );
  }
  const asks = [
    "echo DENO_V8_FLAGS=--max-heap-size=2 >> .env",
    "cp evil.env .env",
    "cp .env.example .env && sed -i s/A/B/ .env",
    'echo "LD_PRE"LOAD=x >> .env',
    "echo -e '\\x4cD_PRELOAD=x' >> .env",
    "echo $VARS >> .env",
    "printf 'A=1\\n' > .gemini/.env",
    "tee -a .env < evil.env",
  ];
  for (const command of asks) {
    const answers = await shell(withGemini(files), command);
    assertEquals(answers.map((a) => a.kind), ["ask", "ask"], command);
    assertStringIncludes(answers[0].text, "a .env file an agent loads when it starts");
  }
  // A virtual environment made where the file would be leaves the file missing, as mkdir does.
  for (const command of ["virtualenv .env", "uv venv .env"]) {
    assertEquals(
      (await shell(withGemini(), command)).map((a) => a.kind),
      ["pass", "pass"],
      command,
    );
  }
  // `python -m venv` runs a `venv.py` of the working folder first, which may write the file.
  for (const command of ["python3 -m venv .env", "py -m venv .env"]) {
    assertEquals(
      (await shell(withGemini(), command)).map((a) => a.kind),
      ["ask", "ask"],
      command,
    );
  }
  assertEquals((await shell(withGemini(), "python3 x.py .env")).map((a) => a.kind), ["ask", "ask"]);
  // Deleting one sets nothing: the destructive gate alone decides.
  const [removed, retried] = await shell(withGemini({ ".env": "A=1\n" }), "rm -rf .env");
  assertEquals([removed.kind, retried.kind], ["deny", "pass"]);
});

Deno.test("[self-protection] harmlessEnvWrites reads only cp of a literal file and echo of literal words", () => {
  const fs = projectFs({ "a.env": "A=1\n", ".env": "B=2\n" });
  const judged = (command: string) => [...harmlessEnvWrites(bashSegments(command)!, fs, ROOT)];
  assertEquals(judged("cp a.env .env"), [".env"]);
  assertEquals(judged("echo C=3 > new.env; echo D=4 >> new.env"), ["new.env"]);
  assertEquals(judged("cp missing.env .env"), []);
  assertEquals(judged("sudo cp a.env .env"), []);
  assertEquals(judged("cp a.env b.env .env"), []);
  assertEquals(judged("cp a.env .env; cat .env | sh"), []);
  // A copy's source written first on the same line is read as it will be: not at all.
  assertEquals(judged("echo LD_PRELOAD=/x > a.env && cp a.env .env"), []);
  assertEquals(judged("echo C=3 > b.txt && cp b.txt .env"), []);
  assertEquals(judged("cp a.env .env && echo done"), []);
  assertEquals(judged("echo C=3 2> .env"), []);
  assertEquals(judged("X=1 echo C=3 > .env"), []);
  assertEquals(judged("echo PATH=/tmp > .env"), []);
  assertEquals([...harmlessEnvWrites(bashSegments("cp a.env .env")!, fs, null)], []);
});

Deno.test("[self-protection] harmlessEnvWrites reads a literal here-document given to cat or tee", () => {
  const fs = projectFs({ ".env": "B=2\n" });
  const judged = (command: string) => [...harmlessEnvWrites(bashSegments(command)!, fs, ROOT)];
  assertEquals(judged("cat > .env <<'EOF'\nA=$B\nEOF"), [".env"]);
  assertEquals(judged("cat <<EOF >> .env\nA=1\nEOF"), [".env"]);
  assertEquals(judged("cat - > .env <<-EOF\n\tA=1\n\tEOF"), [".env"]);
  assertEquals(judged("tee .env <<'EOF'\nA=1\nEOF"), [".env"]);
  assertEquals(judged("tee -a .env <<'EOF'\nA=1\nEOF"), [".env"]);
  // The text it leaves moves GateGuard, or the shell reads the body first.
  assertEquals(judged("cat > .env <<'EOF'\nLD_PRELOAD=/x.so\nEOF"), []);
  assertEquals(judged("cat >> .env <<EOF\nA=$(cat evil)\nEOF"), []);
  assertEquals(judged("cat > .env <<EOF\nA=\\\nLD_PRELOAD=x\nEOF"), []);
  // Anything more than the one here-document and the one target.
  assertEquals(judged("cat a.env > .env <<'EOF'\nA=1\nEOF"), []);
  assertEquals(judged("cat > .env <<'EOF' 2> log\nA=1\nEOF"), []);
  assertEquals(judged("cat > .env <<'A' <<'B'\nx\nA\ny\nB"), []);
  assertEquals(judged("cat > .env <<< 'A=1'"), []);
  assertEquals(judged("tee .env other <<'EOF'\nA=1\nEOF"), []);
  assertEquals(judged("tee .env < a.env"), []);
});

Deno.test("[self-protection] a here-document the agent writes to a .env file or VS Code's settings is judged by its text", async () => {
  const plain = "cat > .env <<'EOF'\nAPI_KEY=abc\nDEBUG=1\nEOF";
  assertEquals((await shell(withGemini(), plain)).map((a) => a.kind), ["pass", "pass"]);
  const planted = "cat > .env <<'EOF'\nAPI_KEY=abc\nNODE_OPTIONS=--require=/tmp/x.js\nEOF";
  const answers = await shell(withGemini(), planted);
  assertEquals(answers.map((a) => a.kind), ["ask", "ask"]);
  assertStringIncludes(answers[0].text, "a .env file an agent loads when it starts");
  const settings = "cat > .vscode/settings.json <<'EOF'\n{ \"editor.tabSize\": 2 }\nEOF";
  const vscode = projectFs({}, [".vscode"]);
  assertEquals((await shell(vscode, settings)).map((a) => a.kind), ["pass", "pass"]);
  const profile = "cat > .vscode/settings.json <<'EOF'\n" +
    '{ "terminal.integrated.defaultProfile.linux": "x" }\nEOF';
  assertEquals((await shell(projectFs({}, [".vscode"]), profile)).map((a) => a.kind), [
    "ask",
    "ask",
  ]);
});

Deno.test("[self-protection] a shell write to a file an approved .envrc loads is asked of the user, every time", async () => {
  const fs = projectFs({
    ".envrc": "source_env_if_exists .envrc.local\n",
    ".envrc.local": "export A=1\n",
  });
  for (const dir of ["/home", "/home/u", "/home/u/.local", "/home/u/.local/share"]) {
    fs.dirs.add(dir);
  }
  fs.dirs.add("/home/u/.local/share/direnv");
  const answers = await shell(fs, "echo 'export LD_PRELOAD=/tmp/x.so' >> .envrc.local");
  assertEquals(answers.map((a) => a.kind), ["ask", "ask"]);
  assertStringIncludes(answers[0].text, "a file an approved .envrc loads");
  // Approving the .envrc itself is a stored environment.
  assertEquals((await shell(fs, "direnv allow")).map((a) => a.kind), ["ask", "ask"]);
});

Deno.test("[self-protection] VS Code's terminal environment is judged like a .env file, wherever the agent runs", async () => {
  const session = new Session(
    projectFs({ ".vscode/settings.json": '{\n  "editor.tabSize": 2\n}\n' }),
  );
  const edit = (from: string, to: string) => ({
    file_path: `${ROOT}/.vscode/settings.json`,
    old_string: from,
    new_string: to,
  });
  const planted = edit(
    '"editor.tabSize": 2',
    '"editor.tabSize": 2,\n  "terminal.integrated.env.linux": { "DENO_V8_FLAGS": "--max-heap-size=2" }',
  );
  for (let i = 0; i < 2; i++) {
    const answer = await session.call("Edit", planted, ASKING);
    assertEquals(answer.kind, "ask");
    assertStringIncludes(answer.text, "it sets DENO_V8_FLAGS for the agent's next start");
    assertStringIncludes(answer.text, "VS Code's settings, whose terminal environment");
  }
  // An ordinary setting goes to the ordinary gate (no Gemini or Codex needed for this row).
  const ordinary = edit('"editor.tabSize": 2', '"editor.tabSize": 4');
  assertEquals((await session.call("Edit", ordinary, ASKING)).kind, "deny");
  assertEquals((await session.call("Edit", ordinary, ASKING)).kind, "pass");
});

Deno.test("[self-protection] a terminal profile that runs a program of the agent's choosing is asked of the user, every time", async () => {
  const session = new Session(
    projectFs({ ".vscode/settings.json": '{\n  "editor.tabSize": 2\n}\n' }),
  );
  const profile = {
    file_path: `${ROOT}/.vscode/settings.json`,
    old_string: '"editor.tabSize": 2',
    new_string:
      '"editor.tabSize": 2,\n  "terminal.integrated.profiles.linux": { "x": { "path": "/tmp/s" } },\n' +
      '  "terminal.integrated.defaultProfile.linux": "x"',
  };
  for (let i = 0; i < 2; i++) {
    const answer = await session.call("Edit", profile, ASKING);
    assertEquals(answer.kind, "ask");
    assertStringIncludes(answer.text, "it changes the program VS Code's terminal starts");
  }
});

/** A project with `files`, on a machine where mise has its data folder. */
function withMise(files: Record<string, string> = {}): MemoryFs {
  const fs = projectFs(files);
  for (const dir of ["/home", "/home/u", "/home/u/.local", "/home/u/.local/share"]) {
    fs.dirs.add(dir);
  }
  fs.dirs.add("/home/u/.local/share/mise");
  return fs;
}

const MISE = '[tools]\nnode = "20"\n';

Deno.test("[self-protection] a mise config change that loads a script or sets a variable GateGuard reads is asked of the user, every time", async () => {
  const session = new Session(withMise({ "mise.toml": MISE }));
  const planted = {
    file_path: `${ROOT}/mise.toml`,
    old_string: MISE,
    new_string: `${MISE}[env]\n_.source = "./env.sh"\n`,
  };
  for (let i = 0; i < 2; i++) {
    const answer = await session.call("Edit", planted, ASKING);
    assertEquals(answer.kind, "ask");
    assertStringIncludes(
      answer.text,
      "it changes what mise sets or runs when a shell enters the folder, which reaches every " +
        "agent started there and GateGuard's hook with it",
    );
  }
  // A folder above the project counts, and every name mise reads.
  for (const path of ["/work/mise.toml", `${ROOT}/.mise.local.toml`, `${ROOT}/.config/mise.toml`]) {
    const answer = await new Session(withMise()).call("Write", {
      file_path: path,
      content: '[env]\nGATEGUARD_STATE_DIR = "/tmp/s"\n',
    }, ASKING);
    assertEquals(answer.kind, "ask", path);
  }
  // The shell's write counts as any write; mise's own commands name no file.
  assertEquals(
    (await shell(withMise({ "mise.toml": MISE }), "echo '_.source = \"x\"' >> mise.toml"))
      .map((a) => a.kind),
    ["ask", "ask"],
  );
  assertEquals(
    (await shell(withMise({ "mise.toml": MISE }), "mise use node@22")).map((a) => a.kind),
    ["pass", "pass"],
  );
});

Deno.test("[self-protection] tool versions and tasks in a mise config go to the ordinary gate; without mise no mise config counts", async () => {
  const session = new Session(withMise({ "mise.toml": MISE }));
  const bump = { file_path: `${ROOT}/mise.toml`, old_string: '"20"', new_string: '"22"' };
  const first = await session.call("Edit", bump, ASKING);
  assertEquals(first.kind, "deny");
  assertStringIncludes(first.text, "Before editing");
  assertEquals((await session.call("Edit", bump, ASKING)).kind, "pass");
  const bare = new Session(projectFs({ "mise.toml": MISE }));
  const planted = { file_path: `${ROOT}/mise.toml`, content: '[env]\n_.source = "./x.sh"\n' };
  assertEquals((await bare.call("Write", planted, ASKING)).kind, "deny");
  assertEquals((await bare.call("Write", planted, ASKING)).kind, "pass");
});
