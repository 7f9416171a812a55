/**
 * grep's and ugrep's options: which take values and what they mean to a
 * search (patterns, includes, exclusions, file types). ugrep reads grep's
 * options and adds its own.
 *
 * @module
 */

import type { FamilySpec, FlagRole } from "./roles.ts";

const GREP_SHORT: Record<string, FlagRole> = {
  A: "value",
  B: "value",
  C: "value",
  D: "value",
  d: "directories",
  e: "pattern",
  f: "pattern-file",
  v: "invert",
  x: "invert",
  L: "invert",
  E: "extended-regexp",
  P: "extended-regexp",
  G: "basic-regexp",
  F: "fixed-strings",
  c: "silent",
  m: "max-count",
  q: "silent",
  r: "recursive",
  R: "recursive",
};

const GREP_LONG: Record<string, FlagRole> = {
  "after-context": "value",
  "before-context": "value",
  context: "value",
  devices: "value",
  directories: "directories",
  regexp: "pattern",
  file: "pattern-file",
  "invert-match": "invert",
  "line-regexp": "invert",
  "files-without-match": "invert",
  "extended-regexp": "extended-regexp",
  "perl-regexp": "extended-regexp",
  "basic-regexp": "basic-regexp",
  "fixed-strings": "fixed-strings",
  "max-count": "max-count",
  count: "silent",
  quiet: "silent",
  silent: "silent",
  label: "value",
  include: "include",
  exclude: "exclude",
  "exclude-dir": "exclude",
  "exclude-from": "unreadable",
  recursive: "recursive",
  "dereference-recursive": "recursive",
  binary: "switch",
  "binary-files": "value",
};

/** How GNU and BSD `grep` read their arguments. */
export const GREP_FLAGS: FamilySpec = {
  patternFirst: true,
  recursive: false,
  longPrefixes: true,
  types: null,
  pathGlobs: false,
  short: GREP_SHORT,
  long: GREP_LONG,
};

/** How `ugrep` reads its arguments. */
export const UGREP_FLAGS: FamilySpec = {
  patternFirst: true,
  recursive: false,
  longPrefixes: true,
  types: "ugrep",
  pathGlobs: false,
  short: {
    ...GREP_SHORT,
    g: "glob-list",
    J: "value",
    K: "value",
    M: "value",
    N: "value",
    O: "extension-list",
    t: "type-list",
  },
  long: {
    ...GREP_LONG,
    glob: "glob-list",
    iglob: "glob-list",
    "file-extension": "extension-list",
    "file-type": "type-list",
    "file-magic": "value",
    "neg-regexp": "value",
    "include-dir": "unreadable",
    "include-from": "unreadable",
    and: "invert",
    andnot: "invert",
    not: "invert",
    "ignore-files": "unreadable-switch",
    jobs: "value",
    range: "value",
  },
};
