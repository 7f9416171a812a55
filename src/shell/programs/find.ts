/**
 * find's (and bfs's) expression language as data: what each primary does,
 * how many values it takes, and which ones act on files instead of testing
 * them, plus the options find reads before its paths.
 *
 * @module
 */

/** What a find primary does to the evidence. */
export type FindRole =
  | "name"
  | "iname"
  | "path"
  | "ipath"
  | "regex"
  | "value"
  | "operand"
  | "exec"
  | "unreadable"
  | "prune"
  | "not"
  | "or"
  | "max-depth"
  | "min-depth"
  | "entry-type";

/** What a primary does beyond testing files: deletes them, runs a program, or writes a file. */
export type FindAction = "deletes" | "runs" | "writes";

/** One find (or bfs) primary: its role, how many values it takes, and its action if any. */
export interface FindPrimary {
  role: FindRole;
  values: number;
  action?: FindAction;
}

const primary = (role: FindRole, values: number, action?: FindAction): FindPrimary =>
  action === undefined ? { role, values } : { role, values, action };

/**
 * The primaries that matter to a reader of find: the evidence reads tests
 * and values, the read-only and destructive checks read actions. Any other
 * word starting with `-` is a primary without values; `-exec`-style
 * primaries run to `;` or `+`.
 */
export const FIND_PRIMARIES: Readonly<Record<string, FindPrimary>> = {
  "-name": primary("name", 1),
  "-iname": primary("iname", 1),
  "-path": primary("path", 1),
  "-ipath": primary("ipath", 1),
  "-wholename": primary("path", 1),
  "-iwholename": primary("ipath", 1),
  "-regex": primary("regex", 1),
  "-iregex": primary("regex", 1),
  "-lname": primary("regex", 1),
  "-ilname": primary("regex", 1),
  "-prune": primary("prune", 0),
  "-not": primary("not", 0),
  "!": primary("not", 0),
  "-o": primary("or", 0),
  "-or": primary("or", 0),
  ",": primary("or", 0),
  "-exec": primary("exec", 0, "runs"),
  "-execdir": primary("exec", 0, "runs"),
  "-ok": primary("exec", 0, "runs"),
  "-okdir": primary("exec", 0, "runs"),
  "-files0-from": primary("unreadable", 1),
  "-f": primary("operand", 1),
  "-type": primary("entry-type", 1),
  "-xtype": primary("entry-type", 1),
  "-maxdepth": primary("max-depth", 1),
  "-mindepth": primary("min-depth", 1),
  "-size": primary("value", 1),
  "-mtime": primary("value", 1),
  "-mmin": primary("value", 1),
  "-atime": primary("value", 1),
  "-amin": primary("value", 1),
  "-ctime": primary("value", 1),
  "-cmin": primary("value", 1),
  "-newer": primary("value", 1),
  "-anewer": primary("value", 1),
  "-cnewer": primary("value", 1),
  "-perm": primary("value", 1),
  "-user": primary("value", 1),
  "-group": primary("value", 1),
  "-uid": primary("value", 1),
  "-gid": primary("value", 1),
  "-links": primary("value", 1),
  "-inum": primary("value", 1),
  "-samefile": primary("value", 1),
  "-fstype": primary("value", 1),
  "-regextype": primary("value", 1),
  "-used": primary("value", 1),
  "-context": primary("value", 1),
  "-printf": primary("value", 1),
  "-fprint": primary("value", 1, "writes"),
  "-fprint0": primary("value", 1, "writes"),
  "-fls": primary("value", 1, "writes"),
  "-fprintf": primary("value", 2, "writes"),
  "-delete": primary("value", 0, "deletes"),
};

/**
 * Options find accepts before its paths, with the number of values each
 * takes; `-O<level>` is written as one word.
 */
export const FIND_LEADING_OPTIONS: Readonly<Record<string, number>> = {
  "-H": 0,
  "-L": 0,
  "-P": 0,
  "-D": 1,
  "-E": 0,
  "-X": 0,
  "-d": 0,
  "-s": 0,
  "-x": 0,
};

/** The primaries that run the words after them as a command, up to `;` or `+`. */
export const FIND_EXEC_PRIMARIES: ReadonlySet<string> = new Set(
  Object.keys(FIND_PRIMARIES).filter((k) => FIND_PRIMARIES[k].role === "exec"),
);

/** The primaries that delete, run programs or write files. */
export const FIND_ACTIONS: readonly string[] = Object.keys(FIND_PRIMARIES).filter((k) =>
  FIND_PRIMARIES[k].action !== undefined
);
