/**
 * Writes a shell command makes into a folder without spelling the paths
 * (`src/hook/folder_writes.ts`): which path each one stands for, and,
 * through the self-protection reader, which control files that reaches
 * beside ordinary copies, downloads and archives that must stay out of it.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { folderWrites, powershellFolderWrites } from "../../src/hook/folder_writes.ts";
import { UNKNOWN } from "../../src/hook/path_match.ts";
import { parseBash, type Segment } from "../../src/shell/bash/mod.ts";
import { readOnlyKind } from "../../src/shell/readonly/mod.ts";
import { CTX, hitsOf } from "./shell_reader.ts";

function parse(code: string): readonly Segment[] | null {
  const p = parseBash(code);
  return p.ok ? p.segments : null;
}

/** The paths `command`, run in /p (in a repository whose top is `repository`), writes without spelling them. */
function paths(command: string, cwd: string | null = "/p", repository?: string): string[] {
  const segments = parse(command);
  assert(segments !== null, command);
  return folderWrites(segments, {
    cwd,
    commandAt: () => 0,
    readsOnly: (s) => readOnlyKind("bash", s.raw) !== null,
    parse,
    ...(repository === undefined ? {} : { repository }),
  }).map((w) => w.path.replace(UNKNOWN, "?"));
}

/**
 * What PowerShell `command`, run in /p (the top of its repository), writes
 * into folders: each path, with its name patterns when they narrow it;
 * `list` reads archives ahead.
 */
function psWrites(
  command: string,
  list?: () => string[] | null,
): { path: string; names?: readonly string[] }[] {
  return powershellFolderWrites(command, {
    cwd: "/p",
    commandAt: () => 0,
    readsOnly: () => false,
    parse,
    repository: "/p",
    ...(list === undefined ? {} : { list }),
  }).map((w) => ({
    path: w.path.replace(UNKNOWN, "?"),
    ...(w.names === undefined ? {} : { names: w.names }),
  }));
}

/** The paths alone of `psWrites`. */
function psPaths(command: string, list?: () => string[] | null): string[] {
  return psWrites(command, list).map((w) => w.path);
}

Deno.test("[self-protection] a copy, move or link into a folder writes the source's name there", () => {
  assertEquals(paths("cp -r /tmp/x/.claude ."), ["/p/.claude"]);
  assertEquals(paths("cp -r /tmp/x/.claude/ ./"), ["/p/.claude"]);
  assertEquals(paths("mv a/b c d/"), ["/p/a/b/?", "/p/d/b", "/p/c/?", "/p/d/c"]);
  assertEquals(paths("cp -t ~/ /tmp/.claude"), ["~/.claude"]);
  assertEquals(paths("cp --target-directory=/etc x"), ["/etc/x"]);
  assertEquals(paths("ln -s /tmp/x/.claude"), ["/p/.claude"]);
  assertEquals(paths("rsync -a /tmp/x/.claude ~"), ["~/.claude"]);
  assertEquals(paths("scp host:/x/.gateguard.jsonc ."), ["/p/.gateguard.jsonc"]);
});

Deno.test("[self-protection] a folder's contents, an archive or a patch write names the line does not hold", () => {
  assertEquals(paths("cp -r /tmp/x/. ."), ["/p/?"]);
  assertEquals(paths("cp -rT /tmp/x ."), ["/p/?"]);
  assertEquals(paths("rsync -a /tmp/x/ ./"), ["/p/?"]);
  assertEquals(paths("tar -xzf /tmp/e.tgz"), ["/p/?"]);
  assertEquals(paths("tar xf /tmp/e.tar -C /srv"), ["/srv/?"]);
  assertEquals(paths("tar --extract --file=/tmp/e.tar --directory=out"), ["/p/out/?"]);
  assertEquals(paths("unzip -o /tmp/e.zip -d ~"), ["~/?"]);
  assertEquals(paths("7z x /tmp/e.7z -o/srv"), ["/srv/?"]);
  assertEquals(paths("cpio -idm < /tmp/e.cpio"), ["/p/?"]);
  assertEquals(paths("patch -p1 < /tmp/p.diff"), ["/p/?"]);
  assertEquals(paths("git apply /tmp/p.diff"), ["/p/?"]);
  assertEquals(paths("git -C sub am < /tmp/m.mbox"), ["/p/sub/?"]);
});

Deno.test("[self-protection] downloads write the URL's file name into their folder", () => {
  assertEquals(paths("wget https://h/x/.gateguard.jsonc"), ["/p/.gateguard.jsonc"]);
  assertEquals(paths("wget -P ~/.claude https://h/settings.json?v=1"), [
    "~/.claude/settings.json",
  ]);
  assertEquals(paths("curl -sSLO https://h/.gateguard.jsonc"), ["/p/.gateguard.jsonc"]);
  assertEquals(paths("curl -o out.json https://h/.gateguard.jsonc"), [], "-o names its file");
});

Deno.test("[self-protection] the folder follows the line's cd, and code handed to a shell", () => {
  assertEquals(paths("cd ~ && tar xf /tmp/e.tar"), ["~/?"]);
  assertEquals(paths("cd sub; cd .. ; unzip /tmp/e.zip"), ["/p/sub/../?"]);
  assertEquals(paths("cd && cp -r /tmp/x/.claude ."), ["~/.claude"]);
  assertEquals(paths(`cd "$D" && tar xf e.tar`), ["./?"], "an unknown cd leaves it unplaced");
  assertEquals(paths(`sh -c 'cd ~ && cp -r /tmp/.claude .'`), ["~/.claude"]);
  assertEquals(paths("tar xf e.tar", null), ["./?"]);
});

Deno.test("[self-protection] listing, testing and creating archives write nothing into a folder", () => {
  for (
    const command of [
      "tar -czf out.tgz src",
      "tar -tf e.tar",
      "unzip -l e.zip",
      "git apply --check p.diff",
      "patch --dry-run -p1 < p.diff",
      "7z l e.7z",
      "curl https://h/.gateguard.jsonc",
      "echo cp -r /tmp/x/.claude .",
    ]
  ) {
    assertEquals(paths(command), [], command);
  }
});

Deno.test("[self-protection] a write into a folder reaches the control files it could create there", () => {
  const reached = (command: string) =>
    hitsOf(command).map((h) => h.kind === "control" ? `${h.row.id}: ${h.piece}` : h.kind);
  assertEquals(reached("cp -r /tmp/x/.claude ."), ["claude-project-settings: .claude"]);
  assertEquals(reached("mv /tmp/x/.gateguard.jsonc ./"), ["project-config: .gateguard.jsonc"]);
  assertEquals(reached("ln -s /tmp/x/.claude"), ["claude-project-settings: .claude"]);
  assertEquals(reached("cp -a /tmp/x/.[!.]* ."), ["claude-project-settings: .[!.]*"]);
  // A name the line does not hold reaches the folder's first control file: one hit is enough.
  const unnamed: [string, string][] = [
    ["tar -xf /tmp/e.tar", "claude-project-settings: ./<whatever tar writes>"],
    ["rsync -a /tmp/x/ ./", "claude-project-settings: ./<whatever rsync writes>"],
    ["cd ~ && unzip -o /tmp/e.zip", "claude-project-settings: ~/<whatever unzip writes>"],
    // Above the home folder, everything below it may be written.
    ["tar -xf /tmp/e.tar -C /", "claude-project-settings: /<whatever tar writes>"],
    ["cd / && tar -xf /tmp/e.tar", "claude-project-settings: /<whatever tar writes>"],
    ["cp -r . ~", "claude-project-settings: ~/<whatever cp writes>"],
    ["git apply /tmp/p.diff", "claude-project-settings: ./<whatever git apply writes>"],
  ];
  for (const [command, hit] of unnamed) assertEquals(reached(command), [hit], command);
  assertEquals(reached("curl -sSLO https://h/.gateguard.jsonc"), [
    "project-config: .gateguard.jsonc",
  ]);
  for (
    const command of [
      "cp a.txt b.txt",
      "cp -r src dist/",
      "cp -r /tmp/x/. build/",
      "rsync -a src/ dist/",
      "mkdir -p out && cd out && tar xf ../e.tar",
      "tar -czf out.tgz .",
      "unzip -d vendor /tmp/e.zip",
      "wget -P downloads https://h/.gateguard.jsonc",
      "ln -s ../lib lib",
    ]
  ) {
    assertEquals(reached(command), [], command);
  }
  assertEquals(CTX.cwd, "/home/u/proj");
});

Deno.test("[self-protection] find's -exec and -delete change what its name tests allow below each start folder", () => {
  const segments = (command: string) => parse(command)!;
  const writes = (command: string) =>
    folderWrites(segments(command), {
      cwd: "/p",
      commandAt: () => 0,
      readsOnly: (s) => readOnlyKind("bash", s.raw) !== null,
      parse,
    }).map((w) => ({ path: w.path.replace(UNKNOWN, "?"), names: w.names }));
  assertEquals(writes("find . -name settings.json -exec sed -i d {} +"), [
    { path: "/p/?", names: ["settings.json"] },
  ]);
  assertEquals(writes("find -L src ~ -iname '*.JSON' -o -path './x/*.jsonc' -delete"), [
    { path: "/p/src/?", names: ["*.json", "*.jsonc"] },
    { path: "~/?", names: ["*.json", "*.jsonc"] },
  ]);
  // A negated test or no name test at all: any file below the folder.
  assertEquals(writes("find . ! -name '*.ts' -exec rm {} +"), [{ path: "/p/?", names: undefined }]);
  assertEquals(writes("find . -type f -exec sed -i s/a/b/ {} +"), [
    { path: "/p/?", names: undefined },
  ]);
  assertEquals(writes("find . -name '*.ts' -print"), [], "no action: it only lists");
  assertEquals(writes("find . -exec grep -l x {} +"), [], "-exec of a read-only command");
  assertEquals(writes("find . -ok ls \\;"), [], "-ok of a read-only command");
  assertEquals(writes("find . -exec grep -l x {} + -exec chmod 600 {} +"), [
    { path: "/p/?", names: undefined },
  ]);
  assertEquals(writes("find . -name '*.json' -print0 | xargs -0 sed -i d"), [
    { path: "/p/?", names: ["*.json"] },
  ]);
  assertEquals(writes("find . -name '*.json' | xargs grep -l x"), [], "xargs only reads");

  const reached = (command: string) =>
    hitsOf(command).map((h) => h.kind === "control" ? h.row.id : h.kind);
  assertEquals(reached("find . -name settings.json -exec sed -i d {} +"), [
    "claude-project-settings",
  ]);
  assertEquals(reached("find . -name '*.jsonc' -exec rm {} +"), ["project-config"]);
  // `.gateguard*` could also name a subagent (`.claude/agents/.gateguard.md`), which cp writes.
  assertEquals(reached("find . -name '.gateguard*' | xargs -I{} cp /tmp/x {}"), [
    "project-config",
    "claude-project-skills",
  ]);
  assertEquals(reached("find ~ -type f -exec chmod 000 {} +"), ["claude-project-settings"]);
  for (
    const command of [
      "find . -name '*.ts' -exec sed -i s/a/b/ {} +",
      "find src -name '*.json' -exec prettier --write {} +",
      "find . -name '*.md' -print",
      "find . -name '*.ts' | xargs sed -i s/a/b/",
    ]
  ) {
    assertEquals(reached(command), [], command);
  }
});

Deno.test("[self-protection] PowerShell's Copy-Item, Move-Item and Expand-Archive write into their destination", () => {
  const ps = (command: string) => psPaths(command);
  assertEquals(ps("Copy-Item -Recurse C:/tmp/x/.claude ."), ["/p/.claude"]);
  assertEquals(ps("cpi -Path /tmp/a,/tmp/.gateguard.jsonc -Dest $env:USERPROFILE"), [
    "$env:USERPROFILE/a",
    "$env:USERPROFILE/.gateguard.jsonc",
  ]);
  assertEquals(ps("Copy-Item -Path C:/tmp/x/* -Destination . -Recurse"), ["/p/?"]);
  assertEquals(ps("Set-Location ~; Move-Item -LiteralPath '/tmp/s.json' .claude"), [
    "~/.claude/s.json",
  ]);
  assertEquals(ps("Expand-Archive -Path C:/tmp/e.zip -DestinationPath ."), ["/p/?"]);
  assertEquals(ps("Expand-Archive C:/tmp/e.zip"), ["/p/?"], "the current folder by default");
  assertEquals(ps("Copy-Item -Recurse C:/tmp/x/.claude . -WhatIf"), [], "-WhatIf writes nothing");
  // A zip read ahead counts only on a line that does nothing else (the download may replace it).
  const clean = (command: string) => psPaths(command, () => ["docs/a.md"]);
  assertEquals(clean("Set-Location /p; Expand-Archive /tmp/ok.zip ."), ["/p/docs/a.md"]);
  assertEquals(
    clean("Invoke-WebRequest -OutFile /tmp/ok.zip https://h/x; Expand-Archive /tmp/ok.zip ."),
    [
      "/p/?",
    ],
  );

  const reached = (command: string) =>
    hitsOf(command, "powershell").map((h) => h.kind === "control" ? h.row.id : h.kind);
  assertEquals(reached("Copy-Item -Recurse C:\\tmp\\x\\.claude ."), ["claude-project-settings"]);
  assertEquals(reached("Expand-Archive -Path C:\\tmp\\e.zip -DestinationPath ."), [
    "claude-project-settings",
  ]);
  for (
    const command of ["Copy-Item a.txt b.txt", "Copy-Item -Recurse src dist", "Get-ChildItem ."]
  ) {
    assertEquals(reached(command), [], command);
  }
});

Deno.test("[self-protection] git clean removes what git does not track below each pathspec; git stash -u from the whole worktree", () => {
  assertEquals(paths("git clean -fdx"), ["/p/?"]);
  assertEquals(paths("git clean -fd src build"), ["/p/src/?", "/p/build/?"]);
  assertEquals(paths("git clean -fdx -e keep"), ["/p/?"]);
  assertEquals(paths("git -C sub clean -f"), ["/p/sub/?"]);
  assertEquals(paths("cd src && git clean -fd"), ["/p/src/?"]);
  // A pathspec with magic starts from the top of the worktree.
  assertEquals(paths("git clean -fd :/", "/r/sub", "/r"), ["/r/?"]);
  assertEquals(paths("git clean -fd :/src", "/r/sub", "/r"), ["/r/src/?"]);
  assertEquals(paths("git clean -fdx ':!keep'", "/r/sub", "/r"), ["/r/?"]);
  assertEquals(paths("git stash -u", "/r/sub", "/r"), ["/r/?"]);
  assertEquals(paths("git stash push --all", "/r/sub", "/r"), ["/r/?"]);
  assertEquals(paths("git -C /o stash -u", "/r/sub", "/r"), ["/o/?"]);
  for (
    const quiet of [
      "git clean -n",
      "git clean --dry-run -d",
      "git clean -ndx",
      "git stash",
      "git stash list",
      "git stash show -u",
      "git stash pop",
    ]
  ) {
    assertEquals(paths(quiet, "/r", "/r"), [], quiet);
  }
});

Deno.test("[self-protection] a recursive permission or ownership change reaches every file below its operands; a move takes its sources away", () => {
  assertEquals(paths("chmod -R 000 ."), ["/p/?"]);
  assertEquals(paths("chmod -R -w . src"), ["/p/?", "/p/src/?"]);
  assertEquals(paths("chmod -R --reference=ref ."), ["/p/?"]);
  assertEquals(paths("chown -R nobody:nogroup ~"), ["~/?"]);
  assertEquals(paths("chgrp --recursive staff ."), ["/p/?"]);
  assertEquals(paths("setfacl -R -m u:me:--- ."), ["/p/?"]);
  assertEquals(paths("chattr -R +i ."), ["/p/?"]);
  for (
    const quiet of ["chmod 600 .env", "chmod +x run.sh", "chown me file", "setfacl -m u:x:r f"]
  ) {
    assertEquals(paths(quiet), [], quiet);
  }
  assertEquals(paths("mv . ../x"), ["/p/?", "/p/../x/?"]);
  assertEquals(paths("mv build dist"), ["/p/build/?", "/p/dist/build"]);
});

Deno.test("[self-protection] a PowerShell listing piped to a command that deletes, moves or rewrites hands it every item below the listed folder", () => {
  const ps = psWrites;
  assertEquals(ps("Get-ChildItem -Recurse -Force | Remove-Item -Force"), [{ path: "/p/?" }]);
  assertEquals(ps("gci -r | % { ri $_.FullName -fo }"), [{ path: "/p/?" }]);
  assertEquals(ps("gci -Path src -r | Move-Item -Destination C:/x"), [{ path: "/p/src/?" }]);
  assertEquals(ps("Set-Location ~; gci -fo | ri -r -fo"), [{ path: "~/?" }]);
  assertEquals(ps("gci -r -Filter *.LOG | ri"), [{ path: "/p/?", names: ["*.log"] }]);
  assertEquals(ps("gci -r -Include *.log,*.tmp | ri"), [{
    path: "/p/?",
    names: ["*.log", "*.tmp"],
  }]);
  assertEquals(ps("gci -r -Include *.log -Exclude a.log | ri"), [{ path: "/p/?" }]);
  assertEquals(ps("gci -r | Select-String foo"), [], "nothing after the listing changes items");
  assertEquals(ps("gci -r; ri x.txt"), [], "another statement, not the pipeline");
});

Deno.test("[self-protection] in PowerShell a native program of the table is read as in Bash; a cmdlet alias keeps its cmdlet", () => {
  const ps = (command: string) => psPaths(command);
  assertEquals(ps("git clean -fdx"), ["/p/?"]);
  assertEquals(ps("git.exe stash -u"), ["/p/?"]);
  assertEquals(ps('& "C:/Program Files/Git/bin/git.exe" clean -fd src'), ["/p/src/?"]);
  assertEquals(ps("tar -xf C:/tmp/e.tar -C out"), ["/p/out/?"]);
  assertEquals(ps("Set-Location sub; tar.exe -xf C:/tmp/e.tar"), ["/p/sub/?"]);
  // `cp` is Copy-Item here: its source's name lands in the destination.
  assertEquals(ps("cp -r C:/tmp/x/.claude ."), ["/p/.claude"]);
  assertEquals(ps("git status"), []);
});
