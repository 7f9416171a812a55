/**
 * Tests of wrapper unwrapping: each wrapper's value-taking options, the
 * scripts handed to shells, `find -exec`, shells reading stdin, and the
 * depth bound.
 */

import { assertEquals } from "../../helpers/assert.ts";
import {
  decodePowerShellCommand,
  MAX_WRAPPER_DEPTH,
  unwrapCommand,
  type Unwrapped,
} from "../../../src/shell/destructive/wrappers.ts";
import { loadAllParts } from "../../../src/shell/destructive/mod.ts";

// The engine loads its PowerShell, cmd.exe and glob parts on demand; these
// tests read commands of every dialect, so they start with all of them.
await loadAllParts();

/** The inner commands of `words` as argument vectors. */
function commands(words: string[]): string[][] {
  return unwrapCommand(words).commands.map((c) => c.words);
}

/** The scripts found behind `words` as `dialect:text`. */
function scripts(words: string[]): string[] {
  return unwrapCommand(words).scripts.map((s) => `${s.dialect}:${s.text}`);
}

const NOTHING: Unwrapped = {
  commands: [],
  templates: [],
  scripts: [],
  stdinShell: null,
  opaque: false,
};

/** Base64 of the UTF-16LE text, as `-EncodedCommand` takes it. */
function encodePowerShell(text: string): string {
  const bytes = new Uint8Array(new Uint16Array([...text].map((c) => c.charCodeAt(0))).buffer);
  return btoa(String.fromCharCode(...bytes));
}

Deno.test("[destructive-bash-gate] a command that is no wrapper comes back as itself", () => {
  assertEquals(unwrapCommand(["rm", "-rf", "x"]), {
    ...NOTHING,
    commands: [{ words: ["rm", "-rf", "x"], stdinAsArgs: false }],
  });
  assertEquals(unwrapCommand([]), NOTHING);
});

Deno.test("[destructive-bash-gate] a program or subcommand named like an object's built-in member is no wrapper", () => {
  for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"]) {
    assertEquals(commands([name, "rm", "-rf", "x"]), [[name, "rm", "-rf", "x"]], name);
    assertEquals(
      commands(["npm", name, "rm", "-rf", "x"]),
      [["npm", name, "rm", "-rf", "x"]],
      name,
    );
  }
});

Deno.test("[destructive-bash-gate] sudo and doas skip their value-taking options", () => {
  const rm = [["rm", "-rf", "x"]];
  assertEquals(commands(["sudo", "rm", "-rf", "x"]), rm);
  assertEquals(commands(["sudo", "-u", "root", "rm", "-rf", "x"]), rm);
  assertEquals(commands(["sudo", "-Eu", "root", "rm", "-rf", "x"]), rm);
  assertEquals(commands(["sudo", "-E", "-u", "root", "--", "rm", "-rf", "x"]), rm);
  assertEquals(commands(["sudo", "--user=root", "rm", "-rf", "x"]), rm);
  assertEquals(commands(["sudo", "--user", "root", "rm", "-rf", "x"]), rm);
  assertEquals(commands(["sudo", "-g", "wheel", "-D", "/tmp", "rm", "-rf", "x"]), rm);
  assertEquals(commands(["/usr/bin/sudo", "rm", "-rf", "x"]), rm);
  assertEquals(commands(["doas", "-u", "root", "rm", "-rf", "x"]), rm);
});

Deno.test("[destructive-bash-gate] sudo -l and command -v run nothing", () => {
  assertEquals(unwrapCommand(["sudo", "-l", "rm", "-rf", "/"]), NOTHING);
  assertEquals(unwrapCommand(["command", "-v", "rm"]), NOTHING);
  assertEquals(unwrapCommand(["command", "-V", "rm"]), NOTHING);
});

Deno.test("[destructive-bash-gate] env skips -i, -u NAME and assignments; -S splits a script", () => {
  assertEquals(commands(["env", "-i", "-u", "HOME", "FOO=1", "rm", "-rf", "x"]), [[
    "rm",
    "-rf",
    "x",
  ]]);
  assertEquals(commands(["env", "--unset=HOME", "A=1", "B=2", "git", "push", "-f"]), [[
    "git",
    "push",
    "-f",
  ]]);
  assertEquals(scripts(["env", "-S", "rm -rf", "x"]), ["bash:rm -rf x"]);
  assertEquals(scripts(["env", "--split-string=rm -rf", "x"]), ["bash:rm -rf x"]);
});

Deno.test("[destructive-bash-gate] command, builtin, exec, nohup, nice, time, timeout, stdbuf, setsid, chroot", () => {
  const cases: [string[], string[]][] = [
    [["command", "rm", "x"], ["rm", "x"]],
    [["command", "-p", "rm", "x"], ["rm", "x"]],
    [["builtin", "echo", "x"], ["echo", "x"]],
    [["exec", "rm", "x"], ["rm", "x"]],
    [["exec", "-a", "name", "rm", "x"], ["rm", "x"]],
    [["nohup", "rm", "x"], ["rm", "x"]],
    [["nice", "rm", "x"], ["rm", "x"]],
    [["nice", "-n", "10", "rm", "x"], ["rm", "x"]],
    [["nice", "-10", "rm", "x"], ["rm", "x"]],
    [["nice", "--adjustment", "5", "rm", "x"], ["rm", "x"]],
    [["time", "rm", "x"], ["rm", "x"]],
    [["time", "-p", "rm", "x"], ["rm", "x"]],
    [["time", "-f", "%e", "-o", "log", "rm", "x"], ["rm", "x"]],
    [["timeout", "10", "rm", "x"], ["rm", "x"]],
    [["timeout", "-s", "KILL", "10s", "rm", "x"], ["rm", "x"]],
    [["timeout", "--kill-after", "5", "10", "rm", "x"], ["rm", "x"]],
    [["stdbuf", "-oL", "rm", "x"], ["rm", "x"]],
    [["stdbuf", "-o", "L", "-e", "0", "rm", "x"], ["rm", "x"]],
    [["setsid", "rm", "x"], ["rm", "x"]],
    [["chroot", "/srv/root", "rm", "x"], ["rm", "x"]],
    [["busybox", "rm", "x"], ["rm", "x"]],
    [["sudo", "env", "A=1", "nice", "-n", "5", "timeout", "60", "rm", "x"], ["rm", "x"]],
  ];
  for (const [words, inner] of cases) assertEquals(commands(words), [inner], words.join(" "));
});

Deno.test("[destructive-bash-gate] xargs: its options are skipped and the command gets stdin as arguments", () => {
  assertEquals(unwrapCommand(["xargs", "-0", "-n", "1", "rm", "-rf"]).commands, [
    { words: ["rm", "-rf"], stdinAsArgs: true },
  ]);
  assertEquals(commands(["xargs", "-I", "{}", "rm", "-rf", "{}"]), [["rm", "-rf", "{}"]]);
  assertEquals(commands(["xargs", "-P", "4", "--max-args=2", "rm"]), [["rm"]]);
  assertEquals(unwrapCommand(["xargs"]), NOTHING);
});

Deno.test("[destructive-bash-gate] sh/bash/zsh/dash/ksh -c hand their operand back as a Bash script", () => {
  for (const shell of ["sh", "bash", "zsh", "dash", "ksh", "/bin/sh"]) {
    assertEquals(scripts([shell, "-c", "rm -rf x"]), ["bash:rm -rf x"], shell);
  }
  assertEquals(scripts(["bash", "-lc", "rm x"]), ["bash:rm x"]);
  assertEquals(scripts(["bash", "-e", "-c", "rm x"]), ["bash:rm x"]);
  assertEquals(scripts(["bash", "-o", "pipefail", "-c", "rm x"]), ["bash:rm x"]);
  assertEquals(scripts(["bash", "--norc", "-c", "rm x", "arg0"]), ["bash:rm x"]);
  assertEquals(unwrapCommand(["sh", "-c", "rm x"]).scripts[0].depth, 1);
});

Deno.test("[destructive-bash-gate] a shell without a script operand reads its script from stdin; with one it runs that file", () => {
  assertEquals(unwrapCommand(["bash"]), { ...NOTHING, stdinShell: "bash" });
  assertEquals(unwrapCommand(["sh", "-s"]), { ...NOTHING, stdinShell: "bash" });
  assertEquals(unwrapCommand(["bash", "script.sh"]), { ...NOTHING, scriptFiles: ["script.sh"] });
  assertEquals(unwrapCommand(["sudo", "sh", "-e", "./s.sh", "a"]), {
    ...NOTHING,
    scriptFiles: ["./s.sh"],
  });
});

Deno.test("[destructive-bash-gate] eval, ssh, watch, su -c, flock -c and trap run scripts", () => {
  assertEquals(scripts(["eval", "rm", "-rf", "x"]), ["bash:rm -rf x"]);
  assertEquals(scripts(["ssh", "-p", "22", "-i", "key", "host", "rm", "-rf", "/"]), [
    "bash:rm -rf /",
  ]);
  assertEquals(unwrapCommand(["ssh", "host"]), NOTHING);
  assertEquals(scripts(["watch", "-n", "1", "ls", "-l"]), ["bash:ls -l"]);
  assertEquals(scripts(["su", "-c", "rm -rf /x", "root"]), ["bash:rm -rf /x"]);
  assertEquals(scripts(["su", "root", "-c", "rm -rf /x"]), ["bash:rm -rf /x"]);
  assertEquals(unwrapCommand(["su", "root"]), { ...NOTHING, stdinShell: "bash" });
  assertEquals(scripts(["flock", "/tmp/lock", "-c", "rm -rf x"]), ["bash:rm -rf x"]);
  assertEquals(commands(["flock", "/tmp/lock", "rm", "-rf", "x"]), [["rm", "-rf", "x"]]);
  assertEquals(scripts(["trap", "rm -rf x", "EXIT"]), ["bash:rm -rf x"]);
});

Deno.test("[destructive-bash-gate] find -exec, -execdir, -ok and -okdir commands end at ; or {} +", () => {
  // find is listed itself first: its own actions (`-delete`) are checked too.
  const runs = (words: string[]) => commands(words).slice(1);
  assertEquals(runs(["find", ".", "-exec", "rm", "-rf", "{}", ";", "-print"]), [[
    "rm",
    "-rf",
    "{}",
  ]]);
  assertEquals(runs(["find", ".", "-execdir", "rm", "{}", "+"]), [["rm", "{}"]]);
  assertEquals(runs(["find", ".", "-ok", "rm", "{}", ";"]), [["rm", "{}"]]);
  assertEquals(runs(["find", ".", "-okdir", "rm", "{}", ";"]), [["rm", "{}"]]);
  assertEquals(
    runs(["find", ".", "-exec", "grep", "-l", "x", "{}", ";", "-exec", "rm", "{}", ";"]),
    [["grep", "-l", "x", "{}"], ["rm", "{}"]],
  );
  assertEquals(commands(["find", ".", "-delete"]), [["find", ".", "-delete"]]);
});

Deno.test("[destructive-bash-gate] PowerShell, cmd and WSL launchers hand back scripts in their dialect", () => {
  assertEquals(scripts(["pwsh", "-Command", "Remove-Item -Recurse x"]), [
    "powershell:Remove-Item -Recurse x",
  ]);
  assertEquals(scripts(["powershell", "-NoProfile", "-c", "ls"]), ["powershell:ls"]);
  assertEquals(scripts(["pwsh", "-EncodedCommand", encodePowerShell("Remove-Item -r x")]), [
    "powershell:Remove-Item -r x",
  ]);
  assertEquals(unwrapCommand(["pwsh", "-e", "!!!"]), { ...NOTHING, opaque: true });
  assertEquals(scripts(["cmd", "/c", "rd", "/s", "/q", "x"]), ["cmd:rd /s /q x"]);
  assertEquals(scripts(["wsl", "rm", "-rf", "x"]), ["bash:rm -rf x"]);
  assertEquals(scripts(["iex", "Remove-Item x"]), ["powershell:Remove-Item x"]);
  assertEquals(scripts(["Invoke-Expression", "Remove-Item x"]), ["powershell:Remove-Item x"]);
  assertEquals(commands(["Start-Process", "-FilePath", "git", "-ArgumentList", "push,--force"]), [
    ["git", "push", "--force"],
  ]);
});

Deno.test("[destructive-bash-gate] -EncodedCommand decoding: UTF-16LE base64, null when malformed", () => {
  assertEquals(decodePowerShellCommand(encodePowerShell("Get-ChildItem")), "Get-ChildItem");
  assertEquals(decodePowerShellCommand("not base64!"), null);
});

Deno.test("[destructive-bash-gate] a command word only known at run time is not unwrapped", () => {
  assertEquals(commands(["$SUDO", "rm", "x"]), [["$SUDO", "rm", "x"]]);
});

Deno.test("[destructive-bash-gate] wrapper chains past the depth bound are opaque", () => {
  const deep = [...Array(MAX_WRAPPER_DEPTH + 1).fill("sudo"), "rm", "-rf", "x"];
  assertEquals(unwrapCommand(deep), { ...NOTHING, opaque: true });
  const shallow = [...Array(MAX_WRAPPER_DEPTH - 1).fill("sudo"), "rm", "-rf", "x"];
  assertEquals(commands(shallow), [["rm", "-rf", "x"]]);
  assertEquals(unwrapCommand(["sh", "-c", "x"], MAX_WRAPPER_DEPTH - 1), {
    ...NOTHING,
    opaque: true,
  });
});

Deno.test("[destructive-bash-gate] package and project runners run the command after their own options", () => {
  assertEquals(commands(["npm", "exec", "--", "rm", "-rf", "x"]), [
    ["npm", "exec", "--", "rm", "-rf", "x"],
    ["rm", "-rf", "x"],
  ]);
  assertEquals(commands(["npm", "x", "--package", "p", "tool"]).at(-1), ["tool"]);
  assertEquals(commands(["pnpm", "--filter", "app", "exec", "vitest"]).at(-1), ["vitest"]);
  assertEquals(commands(["pnpm", "dlx", "--package=p", "tool", "a"]).at(-1), ["tool", "a"]);
  assertEquals(commands(["yarn", "dlx", "-p", "p", "tool"]).at(-1), ["tool"]);
  assertEquals(commands(["bun", "x", "tool"]).at(-1), ["tool"]);
  assertEquals(commands(["bundle", "exec", "--gemfile", "G", "rake", "db:drop"]).at(-1), [
    "rake",
    "db:drop",
  ]);
  assertEquals(commands(["uv", "run", "--with", "x", "--", "pytest"]).at(-1), ["pytest"]);
  assertEquals(commands(["poetry", "run", "pytest"]).at(-1), ["pytest"]);
  assertEquals(commands(["npm", "install"]), [["npm", "install"]]);
});

Deno.test("[destructive-bash-gate] npm exec -c, pnpm exec -c, yarn exec and bun exec hand back a shell command", () => {
  assertEquals(scripts(["npm", "exec", "-c", "rm -rf x"]), ["bash:rm -rf x"]);
  assertEquals(scripts(["pnpm", "exec", "-c", "rm", "-rf", "x"]), ["bash:rm -rf x"]);
  assertEquals(scripts(["yarn", "exec", "rm", "-rf", "x"]), ["bash:rm -rf x"]);
  assertEquals(scripts(["bun", "exec", "rm -rf x"]), ["bash:rm -rf x"]);
});

Deno.test("[destructive-bash-gate] xargs -I, -i and --replace make the command a template of its token", () => {
  assertEquals(unwrapCommand(["xargs", "-I%", "sh", "-c", "%"]).templates, [
    { words: ["sh", "-c", "%"], token: "%" },
  ]);
  assertEquals(unwrapCommand(["xargs", "-i", "cp", "{}", "d"]).templates[0].token, "{}");
  assertEquals(unwrapCommand(["xargs", "--replace=@", "x", "@"]).templates[0].token, "@");
  assertEquals(unwrapCommand(["xargs", "ls"]).templates, []);
});

Deno.test("[destructive-bash-gate] a shell given /dev/stdin or /dev/fd/0 as its script reads stdin", () => {
  for (const path of ["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"]) {
    assertEquals(unwrapCommand(["bash", path]).stdinShell, "bash");
  }
  assertEquals(unwrapCommand(["bash", "script.sh"]).stdinShell, null);
});
