/**
 * The framework resets pack: the commands web frameworks and ORMs ship to
 * drop and recreate a database.
 *
 * @module
 */

import type { Pack, PackRule } from "./pack.ts";
import { throughPackageManagers } from "./package_managers.ts";

const DESTROYS = "drops and recreates the database, deleting its data";

/** Django management commands that empty the database. */
const DJANGO_RESETS = /^(flush|reset_db|sqlflush)$/;

/** Laravel artisan commands that drop every table. */
const ARTISAN_RESETS = /^(migrate:fresh|migrate:reset|migrate:refresh|db:wipe)$/;

const PRISMA_RESET: PackRule = {
  id: "prisma-reset",
  commands: ["prisma"],
  path: ["migrate", "reset"],
  destroys: DESTROYS,
};

const PRISMA_FORCE_RESET: PackRule = {
  id: "prisma-force-reset",
  commands: ["prisma"],
  path: ["db", "push"],
  when: [{ long: ["force-reset"] }],
  destroys: DESTROYS,
};

const RAILS_DB_DROP: PackRule = {
  id: "rails-db-drop",
  commands: ["rails", "rake"],
  path: [/^db:(drop|reset|purge|schema:load|setup|truncate_all)(:.*)?$/],
  destroys: DESTROYS,
};

const SUPABASE_RESET: PackRule = {
  id: "supabase-reset",
  commands: ["supabase"],
  path: ["db", "reset"],
  destroys: DESTROYS,
};

const DRIZZLE_DROP: PackRule = {
  id: "drizzle-drop",
  commands: ["drizzle-kit"],
  path: [/^(drop|push:.*)$/],
  when: [{ long: ["force"] }],
  destroys: DESTROYS,
};

/** The framework resets pack. */
export const FRAMEWORKS_PACK: Pack = {
  id: "frameworks",
  summary:
    "prisma migrate reset / db push --force-reset, rails db:drop, manage.py flush, artisan migrate:fresh",
  defaultOn: true,
  dryRunsAndHelp: true,
  rules: [
    throughPackageManagers(PRISMA_RESET, "prisma"),
    throughPackageManagers(PRISMA_FORCE_RESET, "prisma"),
    throughPackageManagers(RAILS_DB_DROP, /(^|\/)(rails|rake)$/),
    {
      id: "alembic-downgrade",
      commands: ["alembic"],
      path: ["downgrade"],
      // `--sql` only prints the migration's statements.
      unless: [{ long: ["sql"] }],
      destroys: "reverts migrations, dropping the tables and columns they added",
    },
    {
      id: "dotnet-ef-drop",
      commands: ["dotnet", "dotnet-ef"],
      path: ["database", "drop"],
      destroys: "drops the application's database",
    },
    {
      id: "django-flush",
      commands: ["manage.py", "django-admin"],
      path: [DJANGO_RESETS],
      destroys: "deletes every row of every table",
      forms: [
        {
          commands: ["python*", "pypy*"],
          path: [/(^|\/)manage\.py$/, DJANGO_RESETS],
        },
      ],
    },
    {
      id: "artisan-fresh",
      commands: ["artisan"],
      path: [ARTISAN_RESETS],
      destroys: DESTROYS,
      forms: [
        {
          commands: ["php"],
          path: [/(^|\/)artisan$/, ARTISAN_RESETS],
        },
      ],
    },
    throughPackageManagers(SUPABASE_RESET, "supabase"),
    throughPackageManagers(DRIZZLE_DROP, "drizzle-kit"),
  ],
};
