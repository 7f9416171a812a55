/**
 * Symbolic links a Bash line makes before writing through them
 * (`src/hook/line_links.ts`), and the paths the shell reader then matches.
 */
import { assertEquals } from "../helpers/assert.ts";
import { lineLinks, powershellLinks, throughLinks } from "../../src/hook/line_links.ts";
import { parseBash } from "../../src/shell/bash/mod.ts";
import { hitsOf } from "./shell_reader.ts";

function links(command: string) {
  const p = parseBash(command);
  return lineLinks(p.segments, () => 0);
}

Deno.test("[self-protection] ln -s on the line makes the links its operands name", () => {
  assertEquals(links("ln -s ~ h"), [{ link: "h", target: "~" }, { link: "h/*", target: "~" }]);
  assertEquals(links("ln -sfn /etc e && cat e/x"), [
    { link: "e", target: "/etc" },
    { link: "e/etc", target: "/etc" },
  ]);
  assertEquals(links("ln --symbolic ../x"), [{ link: "x", target: "../x" }]);
  assertEquals(links("ln -s -t d ~ /srv"), [{ link: "d/*", target: "~" }, {
    link: "d/srv",
    target: "/srv",
  }]);
  assertEquals(links("ln -s a b dir"), [{ link: "dir/a", target: "a" }, {
    link: "dir/b",
    target: "b",
  }]);
  assertEquals(links("ln a b"), [], "a hard link is judged by its own path");
});

Deno.test("[self-protection] a path through a link made on the line is read as the path it reaches", () => {
  const made = [{ link: "h", target: "~" }, { link: "sub/up", target: ".." }, {
    link: "d/*",
    target: "$HOME",
  }];
  assertEquals(throughLinks("h/.claude/settings.json", made), ["~/.claude/settings.json"]);
  assertEquals(throughLinks("./h/x", made), ["~/x"]);
  assertEquals(throughLinks("sub/up/a", made), ["sub/../a"]);
  assertEquals(throughLinks("d/home/.claude", made), ["$HOME/.claude"]);
  assertEquals(throughLinks("h", made), [], "the link itself");
  assertEquals(throughLinks("hh/x", made), []);
});

Deno.test("[self-protection] through the shell reader, a write through a link the line makes reaches the control file behind it", () => {
  const reached = (command: string) =>
    hitsOf(command).map((h) => h.kind === "control" ? `${h.piece} ${h.row.id}` : h.kind);
  assertEquals(reached("ln -sfn ~ h && sed -i s/a/b/ h/.claude/settings.json"), [
    "h/.claude/settings.json claude-user-settings",
  ]);
  assertEquals(reached("ln -s $HOME h; cp /dev/null h/.claude/settings.json"), [
    "h/.claude/settings.json claude-user-settings",
  ]);
  assertEquals(reached("ln -s .. up && echo x > up/proj/.claude/settings.json"), [
    "up/proj/.claude/settings.json claude-project-settings",
  ]);
  assertEquals(reached("ln -s -t d ~ && echo {} > d/u/.claude/settings.json"), [
    "d/u/.claude/settings.json claude-user-settings",
  ]);
  assertEquals(reached("ln -s src s && echo x > s/a.py"), []);
});

Deno.test("[self-protection] PowerShell's New-Item links and cmd's mklink are links made on the line too", () => {
  assertEquals(powershellLinks("New-Item -ItemType SymbolicLink -Path h -Target $HOME"), [{
    link: "h",
    target: "$HOME",
  }]);
  assertEquals(powershellLinks("ni -it Junction h -Value ~"), [{ link: "h", target: "~" }]);
  assertEquals(powershellLinks("New-Item -ItemType SymbolicLink -Path d -Name h -Target C:\\x"), [{
    link: "d/h",
    target: "C:\\x",
  }]);
  assertEquals(powershellLinks("cmd /c mklink /D h %USERPROFILE%"), [{
    link: "h",
    target: "%USERPROFILE%",
  }]);
  assertEquals(powershellLinks("New-Item -ItemType Directory -Path h"), []);
  const reached = (command: string) =>
    hitsOf(command, "powershell").map((h) => h.kind === "control" ? h.row.id : h.kind);
  assertEquals(
    reached('ni -it Junction h -Value ~; Set-Content h\\.claude\\settings.json "{}"'),
    ["claude-user-settings"],
  );
  assertEquals(reached('New-Item -ItemType Directory -Path h; Set-Content h/x.txt "{}"'), []);
});
