/**
 * Package managers as the way a project's own tools run: `pnpm prisma …`,
 * `npm exec prisma …`, `yarn dlx rimraf …`, `bun x cdk …`, `bundle exec
 * rails …`. A pack rule for a program applies through them unchanged once
 * the program's name joins the front of its subcommand path.
 *
 * @module
 */

import type { PackRule, PathStep, RuleForm } from "./pack.ts";

/** Package managers that run an installed or fetched package's program. */
export const PACKAGE_MANAGERS: readonly string[] = ["npm", "pnpm", "yarn", "bun", "bundle"];

/**
 * `rule` with one more form: as it reads when a package manager runs
 * `program`. The program word leads the path, so it may follow the
 * manager's own subcommand (`exec`, `dlx`, `x`) or stand first (`yarn
 * prisma …`).
 */
export function throughPackageManagers(rule: PackRule, program: PathStep): PackRule {
  const { id, destroys, forms, ...own } = rule;
  const managed: RuleForm = {
    ...own,
    commands: PACKAGE_MANAGERS,
    path: [program, ...(own.path ?? [])],
  };
  return { id, destroys, ...own, forms: [...(forms ?? []), managed] };
}
