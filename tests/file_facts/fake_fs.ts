/**
 * An in-memory `FsPort` for target tests: files with link counts,
 * directories, symlinks (resolved component by component, as the kernel
 * does) and injected errors on chosen paths. It records every path asked
 * about, so tests can prove that a path was judged without the filesystem.
 *
 * @module
 */

import type {
  FsErrorCode,
  FsPort,
  RealPathResult,
  StatResult,
} from "../../src/platform/fs_port.ts";

type Node =
  | { type: "file"; nlink: number | null }
  | { type: "dir" }
  | { type: "symlink"; to: string };

type Resolved = { ok: true; path: string; node: Node } | { ok: false; code: FsErrorCode };

const MAX_LINKS = 40;

function fold(path: string): string[] {
  const out: string[] = [];
  for (const s of path.split("/")) {
    if (s === "" || s === ".") continue;
    if (s === "..") out.pop();
    else out.push(s);
  }
  return out;
}

/** The fake filesystem. Paths are absolute POSIX paths. */
export class FakeFs implements FsPort {
  private nodes = new Map<string, Node>([["/", { type: "dir" }]]);
  private errors = new Map<string, FsErrorCode>();
  /** Every path passed to a port method, in order. */
  readonly asked: string[] = [];

  private parents(path: string): void {
    const segs = fold(path);
    for (let i = 1; i < segs.length; i++) {
      const p = "/" + segs.slice(0, i).join("/");
      if (!this.nodes.has(p)) this.nodes.set(p, { type: "dir" });
    }
  }

  /** Adds a regular file (and its missing parent directories). */
  file(path: string, nlink: number | null = 1): this {
    this.parents(path);
    this.nodes.set("/" + fold(path).join("/"), { type: "file", nlink });
    return this;
  }

  /** Adds a directory (and its missing parents). */
  dir(path: string): this {
    this.parents(path);
    this.nodes.set("/" + fold(path).join("/"), { type: "dir" });
    return this;
  }

  /** Adds a symlink at `path` pointing at `to` (absolute, or relative to its directory). */
  symlink(path: string, to: string): this {
    this.parents(path);
    this.nodes.set("/" + fold(path).join("/"), { type: "symlink", to });
    return this;
  }

  /** Makes every lookup that reaches `path` fail with `code`. */
  fail(path: string, code: FsErrorCode): this {
    this.errors.set(path, code);
    return this;
  }

  private resolve(path: string, followLast: boolean, hops = 0): Resolved {
    const segs = fold(path);
    let cur = "";
    let node: Node = { type: "dir" };
    for (let i = 0; i < segs.length; i++) {
      const candidate = `${cur}/${segs[i]}`;
      const error = this.errors.get(candidate);
      if (error) return { ok: false, code: error };
      const found = this.nodes.get(candidate);
      if (!found) return { ok: false, code: "ENOENT" };
      const last = i === segs.length - 1;
      if (found.type === "symlink" && (!last || followLast)) {
        if (hops >= MAX_LINKS) return { ok: false, code: "ELOOP" };
        const dest = found.to.startsWith("/") ? found.to : `${cur}/${found.to}`;
        const r = this.resolve(dest, true, hops + 1);
        if (!r.ok) return r;
        cur = r.path === "/" ? "" : r.path;
        node = r.node;
      } else {
        cur = candidate;
        node = found;
      }
      if (!last && node.type !== "dir") return { ok: false, code: "ENOTDIR" };
    }
    return { ok: true, path: cur === "" ? "/" : cur, node };
  }

  private info(r: Resolved): StatResult {
    if (!r.ok) return r;
    return {
      ok: true,
      isFile: r.node.type === "file",
      isDirectory: r.node.type === "dir",
      isSymlink: r.node.type === "symlink",
      nlink: r.node.type === "file" ? r.node.nlink : 2,
      size: 0,
      mtimeMs: 0,
    };
  }

  lstat(path: string): StatResult {
    this.asked.push(path);
    return this.info(this.resolve(path, false));
  }

  stat(path: string): StatResult {
    this.asked.push(path);
    return this.info(this.resolve(path, true));
  }

  realPath(path: string): RealPathResult {
    this.asked.push(path);
    const r = this.resolve(path, true);
    return r.ok ? { ok: true, path: r.path } : r;
  }

  readTextBounded(path: string): string | null {
    this.asked.push(path);
    return null;
  }

  readTextBoundedAsync(path: string): Promise<string | null> {
    return Promise.resolve(this.readTextBounded(path));
  }

  readRange(path: string): null {
    this.asked.push(path);
    return null;
  }
}

/** Project roots on a POSIX host, project and tool cwd at `/p`. */
export const POSIX_ROOTS = {
  projectRoot: "/p",
  toolCwd: "/p",
  processCwd: "/p",
  projectDirEnv: "/p",
  hostWindows: false,
  homeDir: "/home/me",
};
