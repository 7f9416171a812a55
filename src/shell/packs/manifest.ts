/**
 * Every destructive pack as a row: its id, whether it is on by default or
 * required, the program names its rules apply to, and how to get its
 * rules. The core pack is always loaded (the engine reads its tables
 * directly); every other pack loads the first time a command reaches one
 * of its program names, so a Bash `rm -rf` reads no interpreter, cloud,
 * container or database rules.
 *
 * The program names repeat what each pack's rules declare, so that a
 * command can be matched against a pack before its rules are loaded; a
 * test holds every row to its pack's rules.
 *
 * @module
 */

import type { Pack } from "./pack.ts";
import { CORE_PACK, SQL_CLIENTS } from "./core.ts";

/** One pack as the engine knows it before its rules are loaded. */
export interface PackEntry {
  /** The name operators switch it by. */
  readonly id: string;
  /** Active unless switched off; an opt-in pack is inactive unless switched on. */
  readonly defaultOn: boolean;
  /** Cannot be switched off. */
  readonly required?: true;
  /** Every program name its rules (and their other forms) apply to; `x*` is a prefix. */
  readonly commands: readonly string[];
  /** The pack itself, when it is always loaded. */
  readonly pack?: Pack;
  /** Loads the pack, when it loads on demand. */
  readonly load?: () => Promise<Pack>;
}

/** Every pack, in the order their rules are tried. */
export const PACK_MANIFEST: readonly PackEntry[] = [
  {
    id: "core",
    defaultOn: true,
    required: true,
    // The SQL clients are named by the rules of both the core and the databases packs.
    commands: [
      ...SQL_CLIENTS,
      "clear-disk",
      "dd",
      "dropdb",
      "format-volume",
      "git",
      "keydb-cli",
      "mkfs",
      "mkfs.*",
      "mongo",
      "mongosh",
      "redis-cli",
      "remove-partition",
      "rm",
      "shred",
      "valkey-cli",
      "wipefs",
    ],
    pack: CORE_PACK,
  },
  {
    id: "filesystem",
    defaultOn: true,
    commands: [
      "7z",
      "7za",
      "7zz",
      "bfs",
      "blkdiscard",
      "bsdtar",
      "bun",
      "bundle",
      "clc",
      "clear-content",
      "clear-recyclebin",
      "cmake",
      "crontab",
      "del-cli*",
      "fd",
      "fdfind",
      "find",
      "gfind",
      "gio",
      "gtar",
      "mkdosfs",
      "mke2fs",
      "mkexfatfs",
      "mkntfs",
      "mkswap",
      "newfs*",
      "npm",
      "pnpm",
      "premove",
      "rimraf*",
      "rmrf",
      "robocopy",
      "rsync",
      "tar",
      "trash",
      "trash-cli*",
      "trash-empty",
      "truncate",
      "yarn",
      "zip",
    ],
    load: async () =>
      (await (import(new URL("./filesystem.ts", import.meta.url).href) as Promise<
        typeof import("./filesystem.ts")
      >)).FILESYSTEM_PACK,
  },
  {
    id: "interpreters",
    defaultOn: true,
    commands: [
      "awk",
      "bb",
      "bun",
      "busybox-awk",
      "clj",
      "clojure",
      "crontab",
      "deno",
      "elixir",
      "erl",
      "evim",
      "ex",
      "gawk",
      "ghc",
      "gmake",
      "groovy",
      "gsed",
      "guile",
      "gview",
      "gvim",
      "jshell",
      "julia",
      "kotlin",
      "lua",
      "make",
      "mawk",
      "mvim",
      "nawk",
      "node",
      "nodejs",
      "nvim",
      "nvimdiff",
      "osascript",
      "perl",
      "php",
      "py",
      "pypy*",
      "python*",
      "r",
      "racket",
      "rails",
      "remake",
      "rscript",
      "ruby",
      "runghc",
      "sbcl",
      "scala",
      "sed",
      "swift",
      "tclsh",
      "ts-node",
      "ts-node-esm",
      "tsx",
      "vi",
      "view",
      "vim",
      "vimdiff",
      "wish",
    ],
    load: async () =>
      (await (import(new URL("./interpreters.ts", import.meta.url).href) as Promise<
        typeof import("./interpreters.ts")
      >)).INTERPRETERS_PACK,
  },
  {
    id: "containers",
    defaultOn: true,
    commands: ["docker", "docker-compose", "nerdctl", "podman", "podman-compose"],
    load: async () =>
      (await (import(new URL("./containers.ts", import.meta.url).href) as Promise<
        typeof import("./containers.ts")
      >)).CONTAINERS_PACK,
  },
  {
    id: "kubernetes",
    defaultOn: true,
    commands: ["argocd", "helm", "k3s", "kubectl", "microk8s.kubectl", "oc"],
    load: async () =>
      (await (import(new URL("./kubernetes.ts", import.meta.url).href) as Promise<
        typeof import("./kubernetes.ts")
      >)).KUBERNETES_PACK,
  },
  {
    id: "iac",
    defaultOn: true,
    commands: [
      "aws-cdk",
      "bun",
      "bundle",
      "cdk",
      "cdktf",
      "npm",
      "pnpm",
      "pulumi",
      "sam",
      "serverless",
      "sls",
      "terraform",
      "terragrunt",
      "tofu",
      "yarn",
    ],
    load: async () =>
      (await (import(new URL("./iac.ts", import.meta.url).href) as Promise<
        typeof import("./iac.ts")
      >)).IAC_PACK,
  },
  {
    id: "cloud",
    defaultOn: true,
    commands: ["aws", "az", "firebase", "gcloud", "gcloud-storage", "gsutil", "rclone"],
    load: async () =>
      (await (import(new URL("./cloud.ts", import.meta.url).href) as Promise<
        typeof import("./cloud.ts")
      >)).CLOUD_PACK,
  },
  {
    id: "hosting",
    defaultOn: true,
    commands: ["fly", "flyctl", "gh", "glab", "heroku", "netlify", "ntl", "vc", "vercel"],
    load: async () =>
      (await (import(new URL("./hosting.ts", import.meta.url).href) as Promise<
        typeof import("./hosting.ts")
      >)).HOSTING_PACK,
  },
  {
    id: "databases",
    defaultOn: true,
    // The SQL clients are named by the rules of both the core and the databases packs.
    commands: [
      ...SQL_CLIENTS,
      "artisan",
      "django-admin",
      "keydb-cli",
      "manage.py",
      "mariadb-admin",
      "mongo",
      "mongorestore",
      "mongosh",
      "mysqladmin",
      "php",
      "pypy*",
      "python*",
      "rails",
      "redis-cli",
      "valkey-cli",
    ],
    load: async () =>
      (await (import(new URL("./databases.ts", import.meta.url).href) as Promise<
        typeof import("./databases.ts")
      >)).DATABASES_PACK,
  },
  {
    id: "frameworks",
    defaultOn: true,
    commands: [
      "alembic",
      "artisan",
      "bun",
      "bundle",
      "django-admin",
      "dotnet",
      "dotnet-ef",
      "drizzle-kit",
      "manage.py",
      "npm",
      "php",
      "pnpm",
      "prisma",
      "pypy*",
      "python*",
      "rails",
      "rake",
      "supabase",
      "yarn",
    ],
    load: async () =>
      (await (import(new URL("./frameworks.ts", import.meta.url).href) as Promise<
        typeof import("./frameworks.ts")
      >)).FRAMEWORKS_PACK,
  },
  {
    id: "git-history",
    defaultOn: true,
    commands: ["git"],
    load: async () =>
      (await (import(new URL("./git_history.ts", import.meta.url).href) as Promise<
        typeof import("./git_history.ts")
      >)).GIT_HISTORY_PACK,
  },
  {
    id: "version-control",
    defaultOn: true,
    commands: ["chg", "hg", "svn"],
    load: async () =>
      (await (import(new URL("./version_control.ts", import.meta.url).href) as Promise<
        typeof import("./version_control.ts")
      >)).VERSION_CONTROL_PACK,
  },
  {
    id: "publish",
    defaultOn: false,
    commands: [
      "buildah",
      "bun",
      "cargo",
      "changeset",
      "dart",
      "deno",
      "docker",
      "dotnet",
      "flit",
      "flutter",
      "gem",
      "gh",
      "git",
      "glab",
      "goreleaser",
      "gradle",
      "gradlew",
      "hatch",
      "helm",
      "jsr",
      "lerna",
      "mix",
      "mvn",
      "mvnw",
      "nerdctl",
      "npm",
      "nuget",
      "ovsx",
      "pdm",
      "pnpm",
      "pod",
      "podman",
      "poetry",
      "python*",
      "release-it",
      "semantic-release",
      "skopeo",
      "twine",
      "uv",
      "vsce",
      "yarn",
    ],
    load: async () =>
      (await (import(new URL("./publish.ts", import.meta.url).href) as Promise<
        typeof import("./publish.ts")
      >)).PUBLISH_PACK,
  },
];

/** The packs a list of switches leaves active, and what was wrong with the switches. */
export interface PackSelection {
  readonly active: readonly PackEntry[];
  readonly warnings: readonly string[];
}

/**
 * The rows of the packs `switches` leave active, in table order: applied in
 * order to the default set, `-name` switches a pack off, `+name` or `name`
 * switches it on, and later switches win. A required pack stays on and an
 * unknown name is ignored, each with a warning.
 */
export function selectPacks(switches: readonly string[]): PackSelection {
  const on = new Map(PACK_MANIFEST.map((p) => [p.id, p.defaultOn]));
  const warnings: string[] = [];
  for (const raw of switches) {
    const entry = raw.trim();
    if (entry === "") continue;
    const off = entry.startsWith("-");
    const id = entry.replace(/^[-+]/, "").toLowerCase();
    const pack = PACK_MANIFEST.find((p) => p.id === id);
    if (pack === undefined) warnings.push(`unknown destructive pack "${id}" ignored`);
    else if (off && pack.required) warnings.push(`the ${id} pack cannot be switched off`);
    else on.set(id, !off);
  }
  return { active: PACK_MANIFEST.filter((p) => on.get(p.id)), warnings };
}
