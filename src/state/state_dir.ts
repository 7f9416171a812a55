/**
 * Whether the state directory can hold GateGuard's state, and why not, in
 * GateGuard's own words.
 *
 * The state directory is where a gate remembers what it has already asked
 * about; a gate that cannot remember must not pass calls it would deny, so
 * the hook treats every reason given here as a reason to deny (see
 * `cli/hook.ts`). The reasons are written for a person: Deno's own error
 * texts ("run again with the --allow-all flag", "NotCapable") mean nothing
 * to whoever has to fix the directory.
 *
 * A symlink in the directory's place is followed only to a directory that
 * exists: a dangling link is never followed to create its target, which
 * could be anywhere.
 *
 * @module
 */

/** Plain words for the error classes a file operation on the state directory can throw. */
const ERROR_WORDS: Readonly<Record<string, string>> = {
  NotCapable: "GateGuard may not write to a device or system path",
  PermissionDenied: "this user may not write there",
  NotFound: "a directory on its path is missing",
  NotADirectory: "a part of its path is a file, not a directory",
  AlreadyExists: "a file is in the way",
  IsADirectory: "a directory is in the way",
  FilesystemLoop: "its path loops through symlinks",
  InvalidData: "its name is not valid",
};

/** The codes of file system errors Deno reports as a generic error, in plain words. */
const CODE_WORDS: Readonly<Record<string, string>> = {
  EROFS: "the file system is read-only",
  ENOSPC: "the disk is full",
  EDQUOT: "the disk quota is used up",
  ENAMETOOLONG: "its path is too long",
};

/** A thrown file error as a short phrase that names no runtime internals. */
export function fsErrorWords(err: unknown): string {
  const name = err instanceof Error ? err.name : "";
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === "string" && Object.hasOwn(CODE_WORDS, code)) return CODE_WORDS[code];
  if (Object.hasOwn(ERROR_WORDS, name)) return ERROR_WORDS[name];
  return typeof code === "string" && /^E[A-Z]+$/.test(code)
    ? `the file system refused the write (${code})`
    : "the file system refused the write";
}

/** What is in the directory's place, by `lstat` and, for a symlink, `stat`. */
function placeProblem(dir: string): string | null | "missing" {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(dir);
  } catch (err) {
    return err instanceof Deno.errors.NotFound ? "missing" : fsErrorWords(err);
  }
  if (info.isDirectory) return null;
  if (!info.isSymlink) {
    return info.isFile ? "it is a file, not a directory" : "it is not a directory";
  }
  try {
    return Deno.statSync(dir).isDirectory ? null : "it is a symlink to something not a directory";
  } catch {
    return "it is a symlink to nothing, which GateGuard does not follow";
  }
}

/**
 * Makes sure `dir` is a directory, creating it (mode 0700) when it is
 * missing. Returns null when it is one, else why it cannot hold state.
 * Whether it can be written shows on the first write. Never throws.
 */
export function prepareStateDir(dir: string): string | null {
  if (dir === "") return "the directory name is empty";
  const problem = placeProblem(dir);
  if (problem !== "missing") return problem;
  try {
    Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
    return null;
  } catch (err) {
    return `it cannot be created: ${fsErrorWords(err)}`;
  }
}
