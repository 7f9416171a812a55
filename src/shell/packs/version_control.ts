/**
 * The version-control pack: Mercurial and Subversion commands that throw
 * away uncommitted work or history, as the core's git rules do for git:
 * deleting untracked files (`hg purge`, `svn cleanup --remove-unversioned`),
 * reverting every change (`hg revert --all`, `svn revert -R`), a forced
 * update (`hg update --clean`) and stripping changesets (`hg strip`).
 *
 * @module
 */

import type { OptionSpec } from "../programs/mod.ts";
import type { Pack } from "./pack.ts";

/** Mercurial's options that take a value (global and common), so it is never read as a subcommand. */
const HG_OPTIONS: OptionSpec = {
  short: {
    R: "value",
    r: "value",
    b: "value",
    I: "value",
    X: "value",
    u: "value",
    d: "value",
    m: "value",
    l: "value",
  },
  long: {
    repository: "value",
    cwd: "value",
    config: "value",
    encoding: "value",
    rev: "value",
    branch: "value",
    include: "value",
    exclude: "value",
    user: "value",
    date: "value",
    message: "value",
    limit: "value",
  },
};

/** Subversion's options that take a value. */
const SVN_OPTIONS: OptionSpec = {
  short: { m: "value", F: "value", r: "value", c: "value" },
  long: {
    depth: "value",
    message: "value",
    file: "value",
    revision: "value",
    username: "value",
    password: "value",
    "config-dir": "value",
    "config-option": "value",
    targets: "value",
    changelist: "value",
    cl: "value",
  },
};

/** The version-control pack. */
export const VERSION_CONTROL_PACK: Pack = {
  id: "version-control",
  summary: "hg purge, hg revert --all, hg update --clean, hg strip, svn revert -R, svn cleanup",
  defaultOn: true,
  dryRunsAndHelp: true,
  rules: [
    {
      id: "hg-purge",
      commands: ["hg", "chg"],
      path: [/^(purge|clean)$/],
      options: HG_OPTIONS,
      unless: [{ short: "p0", long: ["print", "print0"] }],
      destroys: "deletes the files Mercurial does not track",
    },
    {
      id: "hg-revert-all",
      commands: ["hg", "chg"],
      path: ["revert"],
      options: HG_OPTIONS,
      when: [{ short: "a", long: ["all"] }],
      destroys: "throws away every uncommitted change",
    },
    {
      id: "hg-update-clean",
      commands: ["hg", "chg"],
      path: [/^(update|up|checkout|co)$/],
      options: HG_OPTIONS,
      when: [{ short: "C", long: ["clean"] }],
      destroys: "throws away every uncommitted change",
    },
    {
      id: "hg-strip",
      commands: ["hg", "chg"],
      path: [/^(strip|debugstrip)$/],
      options: HG_OPTIONS,
      destroys: "removes changesets and their descendants from the repository",
    },
    {
      id: "svn-revert-recursive",
      commands: ["svn"],
      path: ["revert"],
      options: SVN_OPTIONS,
      when: [{
        test: (input) =>
          input.scan.shorts.some((s) => s.letter === "R") ||
          input.scan.longs.some((l) =>
            l.name === "recursive" ||
            (l.name === "depth" && /^(infinity|immediates|files)$/i.test(l.value ?? ""))
          ),
      }],
      destroys: "throws away every uncommitted change below the folder",
    },
    {
      id: "svn-cleanup-unversioned",
      commands: ["svn"],
      path: ["cleanup"],
      options: SVN_OPTIONS,
      when: [{ long: ["remove-unversioned", "remove-ignored"] }],
      destroys: "deletes the files Subversion does not track",
    },
  ],
};
