/**
 * Package managers as the way a project's own tools run: `pnpm prisma …`,
 * `npm exec prisma …`, `yarn dlx rimraf …`, `bun x cdk …`, `bundle exec
 * rails …`. A pack rule for a program applies through them unchanged once
 * the program's name joins the front of its subcommand path.
 *
 * @module
 */

import type { PackRule, PathStep } from "./pack.ts";

/** Package managers that run an installed or fetched package's program. */
export const PACKAGE_MANAGERS: readonly string[] = ["npm", "pnpm", "yarn", "bun", "bundle"];

/**
 * `rule` as it reads when a package manager runs `program`: the program
 * word leads the path, so it may follow the manager's own subcommand
 * (`exec`, `dlx`, `x`) or stand first (`yarn prisma …`).
 */
export function throughPackageManagers(rule: PackRule, program: PathStep): PackRule {
  return { ...rule, commands: PACKAGE_MANAGERS, path: [program, ...(rule.path ?? [])] };
}
