/**
 * The git history pack: commands that make lost commits unrecoverable or
 * throw away a work tree (also through the plumbing: `read-tree --reset
 * -u`, `checkout-index -f`), beyond the core's rewrites (the core already
 * covers `stash drop`, `reflog expire`/`delete`, `update-ref -d` and
 * `filter-branch`).
 *
 * @module
 */

import type { Pack } from "./pack.ts";

/** The git history pack. */
export const GIT_HISTORY_PACK: Pack = {
  id: "git-history",
  summary: "git gc --prune=now, git prune, git worktree remove --force, read-tree --reset -u",
  defaultOn: true,
  dryRunsAndHelp: true,
  rules: [
    {
      id: "gc-prune-now",
      commands: ["git"],
      path: ["gc"],
      when: [{ arg: /^--prune=(now|all)$/i }],
      worst: ["--prune=now"],
      destroys: "deletes unreachable commits at once, ending any chance to recover them",
    },
    {
      id: "prune",
      commands: ["git"],
      path: ["prune"],
      unless: [{ short: "n", long: ["dry-run"] }],
      destroys: "deletes unreachable objects",
    },
    {
      id: "worktree-remove-force",
      commands: ["git"],
      path: ["worktree", "remove"],
      when: [{ short: "f", long: ["force"] }],
      destroys: "deletes a work tree with its uncommitted changes",
    },
    {
      id: "worktree-prune",
      commands: ["git"],
      path: ["worktree", "prune"],
      unless: [{ short: "n", long: ["dry-run"] }],
      when: [{ arg: /^--expire=(now|all)$/i }],
      worst: ["--expire=now"],
      destroys: "drops the records of missing work trees at once",
    },
    {
      id: "branch-ref-move",
      commands: ["git"],
      path: ["update-ref"],
      when: [{
        test: (input) =>
          input.scan.operands.length >= 2 && /^refs\/heads\//.test(input.scan.operands[0]) &&
          /(~|\^|@\{)/.test(input.scan.operands[1]),
      }],
      destroys: "moves a branch back, dropping the commits after it from the branch",
    },
    {
      id: "read-tree-reset",
      commands: ["git"],
      path: ["read-tree"],
      options: {
        long: { prefix: "value", "index-output": "value", "exclude-per-directory": "value" },
      },
      when: [{ short: "u" }, { long: ["reset"] }],
      destroys: "overwrites the index and work tree with a tree, discarding uncommitted changes",
    },
    {
      id: "checkout-index-force",
      commands: ["git"],
      path: ["checkout-index"],
      options: { long: { prefix: "value", stage: "value" } },
      when: [{ short: "f", long: ["force"] }],
      destroys: "overwrites work tree files with the index, discarding uncommitted changes",
    },
  ],
};
