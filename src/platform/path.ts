/**
 * Splitting a path string at its last separator, for either separator, and
 * joining a name under a directory: payloads, settings and commands may
 * carry POSIX or Windows paths whatever the host. Paths are not resolved or normalised here
 * (`file_facts/paths.ts` does that for targets).
 *
 * @module
 */

function lastSeparator(path: string): number {
  return Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
}

/** The last segment of a `/` or `\` separated path (the whole string when it has none). */
export function baseName(path: string): string {
  return path.slice(lastSeparator(path) + 1);
}

/** Everything before the last separator: `/` for a root child, `.` when there is none. */
export function dirName(path: string): string {
  const cut = lastSeparator(path);
  return cut <= 0 ? (cut === 0 ? path.slice(0, 1) : ".") : path.slice(0, cut);
}

/** `path` without the separators it ends with (a lone `/` becomes ""). */
export function trimSeparators(path: string): string {
  return path.replace(/[\\/]+$/, "");
}

/** `rest` under the directory `dir`: one `/` between them, whatever separators `dir` ends with. */
export function joinPath(dir: string, rest: string): string {
  return `${trimSeparators(dir)}/${rest}`;
}
