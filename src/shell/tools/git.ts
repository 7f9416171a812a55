/**
 * git's global options, the ones written before the subcommand, as data:
 * which take the next word as their value, and what each does to a search
 * the subcommand runs. The destructive check reads the value-takers (so a
 * `-C dir` never hides the subcommand) and the configuration they set; the
 * search evidence reads the roles.
 *
 * @module
 */

/**
 * What a global option does to a search run by the subcommand: nothing
 * (`inert`), sets the directory it runs in (`base`), or something the
 * evidence cannot follow (`unknown`: another repository, work tree or
 * pathspec mode).
 */
export type GitGlobalSearchRole = "inert" | "base" | "unknown";

/** One git global option. */
export interface GitGlobalOption {
  /** Takes the next word as its value (when not attached with `=`). */
  readonly value: boolean;
  /** What it does to a search. */
  readonly search: GitGlobalSearchRole;
  /** Sets configuration (`-c name=value`, `--config-env name=VAR`): aliases and settings follow. */
  readonly config?: true;
}

/** git's global options by spelling. */
export const GIT_GLOBAL_OPTIONS: Readonly<Record<string, GitGlobalOption>> = {
  "-C": { value: true, search: "base" },
  "-c": { value: true, search: "inert", config: true },
  "--config-env": { value: true, search: "unknown", config: true },
  "--git-dir": { value: true, search: "unknown" },
  "--work-tree": { value: true, search: "unknown" },
  "--namespace": { value: true, search: "unknown" },
  "--super-prefix": { value: true, search: "unknown" },
  "--no-pager": { value: false, search: "inert" },
  "-P": { value: false, search: "inert" },
  "--no-optional-locks": { value: false, search: "inert" },
  "-p": { value: false, search: "unknown" },
  "--paginate": { value: false, search: "unknown" },
  "--bare": { value: false, search: "unknown" },
  "--no-replace-objects": { value: false, search: "unknown" },
  "--literal-pathspecs": { value: false, search: "unknown" },
  "--glob-pathspecs": { value: false, search: "unknown" },
  "--noglob-pathspecs": { value: false, search: "unknown" },
  "--icase-pathspecs": { value: false, search: "unknown" },
};

/** The global option spelled `word`, or null when git has none by that spelling. */
export function gitGlobalOption(word: string): GitGlobalOption | null {
  return Object.hasOwn(GIT_GLOBAL_OPTIONS, word) ? GIT_GLOBAL_OPTIONS[word] : null;
}
