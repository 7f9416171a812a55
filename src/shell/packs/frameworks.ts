/**
 * The framework resets pack: the commands web frameworks and ORMs ship to
 * drop and recreate a database.
 *
 * @module
 */

import type { Pack } from "./pack.ts";

const DESTROYS = "drops and recreates the database, deleting its data";

/** Django management commands that empty the database. */
const DJANGO_RESETS = /^(flush|reset_db|sqlflush)$/;

/** Laravel artisan commands that drop every table. */
const ARTISAN_RESETS = /^(migrate:fresh|migrate:reset|migrate:refresh|db:wipe)$/;

/** The framework resets pack. */
export const FRAMEWORKS_PACK: Pack = {
  id: "frameworks",
  summary:
    "prisma migrate reset / db push --force-reset, rails db:drop, manage.py flush, artisan migrate:fresh",
  defaultOn: true,
  dryRunsAndHelp: true,
  rules: [
    {
      id: "prisma-reset",
      commands: ["prisma"],
      path: ["migrate", "reset"],
      destroys: DESTROYS,
    },
    {
      id: "prisma-force-reset",
      commands: ["prisma"],
      path: ["db", "push"],
      when: [{ long: ["force-reset"] }],
      destroys: DESTROYS,
    },
    {
      id: "rails-db-drop",
      commands: ["rails", "rake", "bin/rails"],
      path: [/^db:(drop|reset|purge|schema:load|setup|truncate_all)(:.*)?$/],
      destroys: DESTROYS,
    },
    {
      id: "django-flush",
      commands: ["manage.py", "django-admin"],
      path: [DJANGO_RESETS],
      destroys: "deletes every row of every table",
    },
    {
      id: "django-flush",
      commands: ["python*", "pypy*"],
      path: [/(^|\/)manage\.py$/, DJANGO_RESETS],
      destroys: "deletes every row of every table",
    },
    {
      id: "artisan-fresh",
      commands: ["artisan"],
      path: [ARTISAN_RESETS],
      destroys: DESTROYS,
    },
    {
      id: "artisan-fresh",
      commands: ["php"],
      path: [/(^|\/)artisan$/, ARTISAN_RESETS],
      destroys: DESTROYS,
    },
    {
      id: "supabase-reset",
      commands: ["supabase"],
      path: ["db", "reset"],
      destroys: DESTROYS,
    },
    {
      id: "drizzle-drop",
      commands: ["drizzle-kit"],
      path: [/^(drop|push:.*)$/],
      when: [{ long: ["force"] }],
      destroys: DESTROYS,
    },
  ],
};
