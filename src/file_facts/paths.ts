/**
 * Lexical path handling for target identity: parsing POSIX and
 * Windows-style paths, folding `.`/`..`, Windows name normalization and
 * containment. Pure string work; nothing here touches the filesystem or
 * resolves symlinks.
 *
 * Windows-style means a drive letter, a UNC prefix or any backslash. Such a
 * path is compared case-insensitively, because that is how Windows
 * resolves it, whatever host the hook runs on.
 *
 * @module
 */

/** A path split into its root and its `/`-free segments. */
export interface PathParts {
  /** True for Windows syntax (drive letter, UNC prefix or backslashes). */
  readonly windows: boolean;
  /** `""` (relative), `"/"`, a drive such as `"C:/"`, or a UNC share `"//server/share/"`. */
  readonly root: string;
  readonly segments: readonly string[];
}

/** A drive root: letter, colon, then a separator or nothing. */
const DRIVE = /^[A-Za-z]:(?:[\\/]|$)/;

/** True when `path` is written in Windows syntax. */
export function isWindowsStyle(path: string): boolean {
  return path.includes("\\") || DRIVE.test(path);
}

/**
 * The `\\?\` long-path prefixes Windows APIs (and realpath there) may add,
 * and the `\\.\` device-namespace ones any program may write: they name the
 * same file as the path without them.
 */
const LONG_PREFIXES: readonly { prefix: string; replacement: string }[] = [
  { prefix: "//?/unc/", replacement: "//" },
  { prefix: "//?/", replacement: "" },
  { prefix: "//./unc/", replacement: "//" },
  { prefix: "//./", replacement: "" },
];

/** A drive's administrative share on this machine (`\\localhost\C$\…` is `C:\…`). */
const OWN_ADMIN_SHARE = /^\/\/(localhost|127\.0\.0\.1|\[::1\]|::1)\/([a-z])\$(?=\/|$)/i;

/**
 * Splits a path into root and segments, without folding anything. `windows`
 * overrides the syntax detection (a `//server/share/x` key is Windows-style
 * only because its target was).
 */
export function parsePath(path: string, windows: boolean = isWindowsStyle(path)): PathParts {
  let text = windows ? path.replaceAll("\\", "/") : path;
  if (windows) {
    for (const { prefix, replacement } of LONG_PREFIXES) {
      if (text.slice(0, prefix.length).toLowerCase() === prefix) {
        text = replacement + text.slice(prefix.length);
        break;
      }
    }
    text = text.replace(OWN_ADMIN_SHARE, (_, _host, drive: string) => `${drive}:`);
  }
  let root = "";
  let rest = text;
  if (windows && DRIVE.test(text)) {
    root = text.slice(0, 2) + "/";
    rest = text.slice(2);
  } else if (windows && text.startsWith("//")) {
    const [server = "", share = "", ...tail] = text.slice(2).split("/");
    root = `//${server}/${share}/`;
    rest = tail.join("/");
  } else if (text.startsWith("/")) {
    root = "/";
  }
  return { windows, root, segments: rest.split("/").filter((s) => s !== "") };
}

/** True when `path` climbs with a `..` segment, in either separator. */
export function climbs(path: string): boolean {
  return /(?:^|[\\/])\.\.(?:$|[\\/])/.test(path);
}

/** True when `path` has a root, as `parsePath` would find, without splitting it into segments. */
export function isAbsolute(path: string): boolean {
  const windows = isWindowsStyle(path);
  const text = windows ? path.replaceAll("\\", "/") : path;
  return text.startsWith("/") || (windows && DRIVE.test(text));
}

/**
 * The name Windows actually opens for one segment: a `:stream` suffix and
 * then trailing dots and spaces are dropped (`CLAUDE.md.` and
 * `CLAUDE.md::$DATA` both name `CLAUDE.md`). `.` and `..` stay as they are.
 */
export function windowsName(segment: string): string {
  if (segment === "." || segment === "..") return segment;
  const colon = segment.indexOf(":");
  const name = colon >= 0 ? segment.slice(0, colon) : segment;
  let end = name.length;
  while (end > 0 && (name[end - 1] === "." || name[end - 1] === " ")) end--;
  return name.slice(0, end);
}

/**
 * True when a segment gets Windows name normalization: always on
 * Windows-style paths, and on any path for a segment naming an NTFS
 * stream (`::$`), which only a Windows filesystem could mean.
 */
export function needsWindowsName(windows: boolean, segment: string): boolean {
  return windows || segment.includes("::$");
}

/**
 * Folds `.` and `..` lexically (`..` never climbs above the root). With
 * `names`, each segment is first reduced to its Windows name, and segments
 * that reduce to nothing are dropped.
 */
export function foldSegments(
  segments: readonly string[],
  names: boolean,
  out: string[] = [],
): string[] {
  for (const raw of segments) {
    const segment = names ? windowsName(raw) : raw;
    if (segment === "" || segment === ".") continue;
    if (segment === "..") out.pop();
    else out.push(segment);
  }
  return out;
}

/** Applies Windows name normalization to the segments that need it (see `needsWindowsName`). */
export function normalizeNames(windows: boolean, segments: readonly string[]): string[] {
  return segments
    .map((s) => needsWindowsName(windows, s) ? windowsName(s) : s)
    .filter((s) => s !== "");
}

/** An absolute directory to join relative paths to, as given and folded. */
export interface Anchor {
  readonly raw: PathParts;
  readonly folded: PathParts;
}

/**
 * The absolute directory relative paths are joined to: `base`, itself made
 * absolute against `fallback` when relative. Worked out once, it serves
 * any number of paths (`joinPath`).
 */
export function anchorOf(base: string, fallback: string): Anchor {
  let raw = parsePath(base);
  if (raw.root === "") {
    const outer = parsePath(fallback);
    raw = {
      windows: raw.windows || outer.windows,
      root: outer.root === "" ? "/" : outer.root,
      segments: [...outer.segments, ...raw.segments],
    };
  }
  return { raw, folded: { ...raw, segments: foldSegments(raw.segments, raw.windows) } };
}

/**
 * Makes `path` absolute against `anchor` and folds it, as `absolutePath`
 * does. The folded anchor is copied, not read again segment by segment,
 * unless a Windows-style path makes the anchor Windows-style too.
 */
export function joinPath(path: string, anchor: Anchor): PathParts {
  const parts = parsePath(path);
  if (parts.root !== "") {
    return { ...parts, segments: foldSegments(parts.segments, parts.windows) };
  }
  const windows = parts.windows || anchor.raw.windows;
  const segments = windows === anchor.raw.windows
    ? foldSegments(parts.segments, windows, anchor.folded.segments.slice())
    : foldSegments([...anchor.raw.segments, ...parts.segments], windows);
  return { windows, root: anchor.raw.root, segments };
}

/**
 * Makes `path` absolute against `base` (itself made absolute against
 * `fallback` when relative) and folds it. The result is Windows-style when
 * either the path or the base it was joined to is.
 */
export function absolutePath(path: string, base: string, fallback: string): PathParts {
  const parts = parsePath(path);
  if (parts.root !== "") {
    return { ...parts, segments: foldSegments(parts.segments, parts.windows) };
  }
  return joinPath(path, anchorOf(base, fallback));
}

/** The `/`-separated text of an absolute path. */
export function formatPath(parts: PathParts): string {
  return parts.root + parts.segments.join("/");
}

/**
 * How many segments `outer` has when `inner` lies strictly inside it, or
 * null when it does not (or is it): `inner`'s segments from that index on
 * are its path below `outer`. Compared case-insensitively when either is
 * Windows-style. Allocates nothing.
 */
export function insideAt(outer: PathParts, inner: PathParts): number | null {
  const fold = outer.windows || inner.windows;
  const same = (a: string, b: string): boolean =>
    fold ? a.toLowerCase() === b.toLowerCase() : a === b;
  if (!same(outer.root, inner.root)) return null;
  if (inner.segments.length <= outer.segments.length) return null;
  for (let i = 0; i < outer.segments.length; i++) {
    if (!same(outer.segments[i], inner.segments[i])) return null;
  }
  return outer.segments.length;
}

/**
 * The segments of `inner` below `outer`, or null when `inner` is not
 * inside it (or is it). Compared case-insensitively when either is
 * Windows-style.
 */
export function relativeSegments(outer: PathParts, inner: PathParts): string[] | null {
  const at = insideAt(outer, inner);
  return at === null ? null : inner.segments.slice(at);
}
