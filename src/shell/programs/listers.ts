/**
 * The options of the directory listers `ls` and `tree`: which take values
 * and which hide or select entries of a listing.
 *
 * @module
 */

import type { FamilySpec } from "./roles.ts";

/** How `ls` reads its arguments. */
export const LS_FLAGS: FamilySpec = {
  patternFirst: false,
  recursive: false,
  longPrefixes: true,
  types: null,
  pathGlobs: false,
  short: { I: "exclude", R: "recursive", T: "value", w: "value" },
  long: {
    "block-size": "value",
    format: "value",
    hide: "exclude",
    ignore: "exclude",
    "indicator-style": "value",
    "quoting-style": "value",
    recursive: "recursive",
    sort: "value",
    tabsize: "value",
    time: "value",
    "time-style": "value",
    width: "value",
  },
};

/** How `tree` reads its arguments. */
export const TREE_FLAGS: FamilySpec = {
  patternFirst: false,
  recursive: true,
  longPrefixes: false,
  types: null,
  pathGlobs: false,
  short: { I: "bar-exclude", L: "value", o: "value", P: "bar-include" },
  long: {
    charset: "value",
    filelimit: "value",
    fromfile: "unreadable-switch",
    fromtabfile: "unreadable-switch",
    gitfile: "unreadable",
    hintro: "value",
    houtro: "value",
    infile: "unreadable",
    sort: "value",
    timefmt: "value",
  },
};
