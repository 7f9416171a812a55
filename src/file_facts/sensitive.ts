/**
 * Sensitive targets: files too costly to change without the full
 * first-touch check (secrets, keys, auth and payment code, migrations, CI
 * workflows, and GateGuard's own project configuration).
 *
 * A target is judged twice, on its lexical class path and on its real
 * location, so a symlinked directory cannot launder a sensitive file
 * under an ordinary name. Every rule compares whole names or segments,
 * never substrings, and any doubt while resolving counts as sensitive.
 *
 * @module
 */

import type { FsPort } from "../platform/fs_port.ts";
import {
  fsParts,
  judgedPath,
  projectRootParts,
  type ResolvedTarget,
  type Roots,
} from "./resolve.ts";
import { realLocation } from "./real_path.ts";

/**
 * Exact sensitive file names. `.gateguard.jsonc` is GateGuard's project
 * configuration: an agent must not loosen its own gate without the full
 * check, so it is sensitive at any depth.
 */
const SENSITIVE_NAMES: ReadonlySet<string> = new Set([
  ".env",
  ".netrc",
  ".pgpass",
  ".gateguard.jsonc",
]);

/** File name prefixes of environment files, private keys and credential stores. */
const SENSITIVE_PREFIXES: readonly string[] = [
  ".env.",
  "id_rsa",
  "id_ed25519",
  "id_ecdsa",
  "id_dsa",
  "credentials",
  "secrets.",
];

/** Extensions of certificates and private keys. */
const SENSITIVE_EXTENSIONS: readonly string[] = [".pem", ".key", ".p12", ".pfx"];

/** Directory (or file) names that mark security-critical code anywhere in the path. */
const SENSITIVE_SEGMENTS: ReadonlySet<string> = new Set([
  "auth",
  "authn",
  "authz",
  "security",
  "secrets",
  "payment",
  "payments",
  "billing",
  "migrations",
]);

/** True when a lowercased, `/`-separated path names a sensitive target by the rules alone. */
export function isSensitivePath(path: string): boolean {
  const segments = path.split("/").filter((s) => s !== "");
  const name = segments.at(-1) ?? "";
  if (SENSITIVE_NAMES.has(name)) return true;
  if (SENSITIVE_PREFIXES.some((p) => name.startsWith(p))) return true;
  if (SENSITIVE_EXTENSIONS.some((e) => name.endsWith(e))) return true;
  if (segments.some((s) => SENSITIVE_SEGMENTS.has(s))) return true;
  // Workflows are matched below any ancestor: an unverified worktree or an outside path.
  for (let i = 0; i + 2 < segments.length; i++) {
    if (segments[i] === ".github" && segments[i + 1] === "workflows") return true;
  }
  return false;
}

/**
 * True when the target is sensitive on its lexical path or on its real
 * location (judged relative to the project root's real location, or whole
 * when outside it). A foreign target with no `fsPath` is judged on its
 * path alone. Any resolution failure counts as sensitive.
 */
export function isSensitive(target: ResolvedTarget, roots: Roots, fs: FsPort): boolean {
  try {
    if (isSensitivePath(target.classPath)) return true;
    const location = fsParts(target);
    if (!location) return false;
    const real = realLocation(location, fs);
    if (!real) return true;
    const root = projectRootParts(roots);
    // A root in the other host's syntax has no real location: judge the whole real path.
    if (root.windows !== roots.hostWindows) {
      return isSensitivePath(judgedPath(real, null, fs, false));
    }
    const realRoot = realLocation(root, fs);
    if (!realRoot) return true;
    return isSensitivePath(judgedPath(real, realRoot, fs, false));
  } catch {
    return true;
  }
}
