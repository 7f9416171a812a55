import { assertEquals } from "../helpers/assert.ts";
import { isSensitive, isSensitivePath } from "../../src/file_facts/sensitive.ts";
import { resolveTarget, type Roots } from "../../src/file_facts/resolve.ts";
import { FakeFs, POSIX_ROOTS } from "./fake_fs.ts";

function sensitive(raw: string, fs: FakeFs, roots: Roots = POSIX_ROOTS): boolean {
  return isSensitive(resolveTarget(raw, roots, fs), roots, fs);
}

Deno.test("[sensitive-targets] sensitive file names", () => {
  const names = [
    ".env",
    ".netrc",
    ".pgpass",
    ".env.local",
    ".env.example.ts",
    "server.pem",
    "tls.key",
    "cert.p12",
    "cert.pfx",
    "id_rsa",
    "id_rsa.pub",
    "id_ed25519",
    "id_ecdsa",
    "id_dsa",
    "credentials",
    "credentials.json",
    "secrets.yaml",
  ];
  for (const n of names) assertEquals(isSensitivePath(`config/${n}`), true, n);
});

Deno.test("[sensitive-targets] GateGuard's own .gateguard.jsonc is sensitive at any depth", () => {
  assertEquals(isSensitivePath(".gateguard.jsonc"), true);
  assertEquals(isSensitivePath("packages/web/.gateguard.jsonc"), true);
  assertEquals(isSensitivePath("gateguard.jsonc"), false);
});

Deno.test("[sensitive-targets] sensitive whole segments", () => {
  const segments = [
    "auth",
    "authn",
    "authz",
    "security",
    "secrets",
    "payment",
    "payments",
    "billing",
    "migrations",
  ];
  for (const s of segments) {
    assertEquals(isSensitivePath(`src/${s}/x.py`), true, s);
    assertEquals(isSensitivePath(`${s}/deep/x.py`), true, s);
    assertEquals(isSensitivePath(`bin/${s}`), true, s);
  }
});

Deno.test("[sensitive-targets] substrings never count: src/author.py, docs/authoring.md, lib/paymentutils.py are ordinary", () => {
  for (
    const p of [
      "src/author.py",
      "docs/authoring.md",
      "lib/paymentutils.py",
      "src/oauth/x.py",
      "my.env",
      ".envrc",
      "env.local",
      "keys.py",
      "secrets",
      "secret/x",
    ]
  ) {
    assertEquals(isSensitivePath(p), p === "secrets", p);
  }
});

Deno.test("[sensitive-targets] files under .github/workflows/, also below an ancestor", () => {
  assertEquals(isSensitivePath(".github/workflows/ci.yml"), true);
  assertEquals(isSensitivePath(".claude/worktrees/w/.github/workflows/ci.yml"), true);
  assertEquals(isSensitivePath("/home/me/other/.github/workflows/deploy/x.yml"), true);
  assertEquals(isSensitivePath(".github/workflow/ci.yml"), false);
  assertEquals(isSensitivePath(".github/ci.yml"), false);
});

Deno.test("[sensitive-targets] an ordinary existing file is not sensitive", () => {
  const fs = new FakeFs().file("/p/src/tools/login.py");
  assertEquals(sensitive("src/tools/login.py", fs), false);
  assertEquals(sensitive("src/tools/new.py", fs), false);
  assertEquals(sensitive("src/newdir/deeper/new.py", fs), false);
});

Deno.test("[sensitive-targets] a symlinked directory into auth/ makes its files sensitive", () => {
  const fs = new FakeFs().dir("/p/auth").symlink("/p/src/tools", "../auth").file(
    "/p/auth/login.py",
  );
  assertEquals(sensitive("src/tools/login.py", fs), true);
  // A file that does not exist yet is judged from its nearest existing directory.
  assertEquals(sensitive("src/tools/new/created.py", fs), true);
});

Deno.test("[sensitive-targets] a symlinked file pointing at a key is sensitive", () => {
  const fs = new FakeFs().file("/home/me/.ssh/id_rsa").symlink(
    "/p/notes.txt",
    "/home/me/.ssh/id_rsa",
  );
  assertEquals(sensitive("notes.txt", fs), true);
});

Deno.test("[sensitive-targets] a real location outside the project is judged on its absolute path", () => {
  const outsideAuth = new FakeFs().file("/srv/auth/x.py").symlink("/p/lib", "/srv/auth");
  assertEquals(sensitive("lib/x.py", outsideAuth), true);
  const outsideOrdinary = new FakeFs().file("/srv/shared/x.py").symlink("/p/lib", "/srv/shared");
  assertEquals(sensitive("lib/x.py", outsideOrdinary), false);
});

Deno.test("[sensitive-targets] the real location is judged relative to the real project root", () => {
  // The project root itself is a symlink, as /tmp is on macOS.
  const fs = new FakeFs().file("/private/p/src/a.py").symlink("/p", "/private/p");
  assertEquals(sensitive("src/a.py", fs), false);
  const ancestorAuth = new FakeFs().file("/auth/p/src/a.py").symlink("/p", "/auth/p");
  assertEquals(sensitive("src/a.py", ancestorAuth), false);
});

Deno.test("[sensitive-targets] a dangling symlink, ENOTDIR, EACCES, a loop or an unresolvable root count as sensitive", () => {
  assertEquals(sensitive("src/a.py", new FakeFs().symlink("/p/src/a.py", "/nowhere/a.py")), true);
  assertEquals(
    sensitive("src/tools/a.py", new FakeFs().dir("/p/src").symlink("/p/src/tools", "/gone")),
    true,
  );
  assertEquals(sensitive("src/file.py/a.py", new FakeFs().file("/p/src/file.py")), true);
  assertEquals(sensitive("src/a.py", new FakeFs().dir("/p/src").fail("/p/src", "EACCES")), true);
  assertEquals(
    sensitive("src/a.py", new FakeFs().symlink("/p/src", "/p/loop").symlink("/p/loop", "/p/src")),
    true,
  );
  assertEquals(
    sensitive("src/a.py", new FakeFs().dir("/p/src").fail("/p/src/a.py", "EOTHER")),
    true,
  );
  assertEquals(sensitive("src/a.py", new FakeFs().fail("/p", "EACCES")), true);
});

Deno.test("[sensitive-targets] a project root that does not exist yet is resolved from its nearest existing parent", () => {
  assertEquals(sensitive("/p/src/a.py", new FakeFs()), false);
});

Deno.test("[sensitive-targets] the lexical rules decide before any filesystem access", () => {
  const fs = new FakeFs();
  assertEquals(sensitive("src/auth/x.py", fs), true);
  assertEquals(fs.asked, []);
});

Deno.test("[target-resolution] a foreign path is judged by its path alone", () => {
  const fs = new FakeFs();
  assertEquals(sensitive("C:\\p\\src\\a.py", fs), false);
  assertEquals(sensitive("C:\\p\\src\\Auth\\a.py", fs), true);
  assertEquals(sensitive("C:\\p\\.ENV.", fs), true);
  assertEquals(fs.asked, []);
});

Deno.test("[worktree-prefix] a verified worktree's name does not make its files sensitive, an unverified one is judged as written", () => {
  const verified = new FakeFs().file("/p/.claude/worktrees/billing/.git").file(
    "/p/.claude/worktrees/billing/src/a.py",
  );
  assertEquals(sensitive(".claude/worktrees/billing/src/a.py", verified), false);
  const unverified = new FakeFs().file("/p/.claude/worktrees/billing/src/a.py");
  assertEquals(sensitive(".claude/worktrees/billing/src/a.py", unverified), true);
});

Deno.test("[sensitive-targets] a port that throws counts as sensitive", () => {
  const fs = new FakeFs();
  fs.realPath = () => {
    throw new Error("boom");
  };
  assertEquals(sensitive("src/a.py", fs), true);
});

Deno.test("[sensitive-targets] a backslash in a name does not hide a symlinked directory into auth/ on a POSIX host", () => {
  const fs = new FakeFs().dir("/p/auth").symlink("/p/tools", "auth").dir("/p/lib");
  assertEquals(sensitive("/p/tools/login\\x.py", fs), true);
  assertEquals(sensitive("/p/lib/login\\x.py", fs), false);
  assertEquals(sensitive("/p/dangling\\x.py", fs.symlink("/p/dangling\\x.py", "/nowhere")), true);
});
