/**
 * fd's options: which take values and what they mean to a search. `-x`
 * and `-X` run a command per result or batch, and `-l` runs `ls -l` over
 * the results.
 *
 * @module
 */

import type { FamilySpec } from "./roles.ts";

/** How `fd` reads its arguments. */
export const FD_FLAGS: FamilySpec = {
  patternFirst: true,
  recursive: true,
  longPrefixes: false,
  types: null,
  pathGlobs: false,
  short: {
    c: "value",
    d: "max-depth",
    e: "extension",
    E: "exclude",
    j: "value",
    l: "runs",
    o: "value",
    S: "value",
    H: "hidden",
    I: "no-ignore",
    q: "silent",
    u: "all-files",
    t: "entry-type",
    x: "exec",
    X: "exec",
  },
  long: {
    "and": "value",
    "base-directory": "base",
    "batch-size": "value",
    "changed-before": "value",
    "changed-within": "value",
    "change-newer-than": "value",
    "change-older-than": "value",
    color: "value",
    "exact-depth": "exact-depth",
    exclude: "exclude",
    exec: "exec",
    "exec-batch": "exec",
    extension: "extension",
    format: "value",
    "ignore-file": "unreadable",
    "list-details": "runs",
    "max-depth": "max-depth",
    "max-results": "max-count",
    quiet: "silent",
    hidden: "hidden",
    "no-ignore": "no-ignore",
    "no-ignore-vcs": "no-ignore",
    unrestricted: "all-files",
    "min-depth": "min-depth",
    newer: "value",
    older: "value",
    owner: "value",
    "path-separator": "value",
    "search-path": "path",
    size: "value",
    threads: "value",
    type: "entry-type",
  },
};
