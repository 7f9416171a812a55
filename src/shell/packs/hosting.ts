/**
 * The hosting and forge pack: deleting repositories and releases on GitHub
 * and GitLab, and whole apps on Vercel, Fly.io, Heroku and Netlify.
 *
 * @module
 */

import type { Pack } from "./pack.ts";

/** The hosting and forge pack. */
export const HOSTING_PACK: Pack = {
  id: "hosting",
  summary: "gh/glab repo and release deletes, vercel remove, fly apps destroy, heroku apps:destroy",
  defaultOn: true,
  dryRunsAndHelp: true,
  rules: [
    {
      id: "forge-repo-delete",
      commands: ["gh", "glab"],
      path: [/^(repo|release|project|gist)$/, /^(delete|remove)$/],
      options: { short: { R: "value" }, long: { repo: "value" } },
      destroys: "deletes a repository, release or gist on the forge",
    },
    {
      id: "forge-secret-delete",
      commands: ["gh", "glab"],
      path: [/^(secret|variable|ssh-key|gpg-key|label|cache|run)$/, /^(delete|remove)$/],
      options: { short: { R: "value" }, long: { repo: "value" } },
      destroys: "deletes secrets, variables, keys or other repository settings on the forge",
    },
    {
      id: "gh-api-delete",
      commands: ["gh"],
      path: ["api"],
      options: {
        short: { X: "value", H: "value", f: "value", F: "value", p: "value" },
        long: { method: "value", header: "value", field: "value", "raw-field": "value" },
      },
      when: [{
        test: (input) =>
          input.scan.shorts.some((s) => s.letter === "X" && s.value?.toUpperCase() === "DELETE") ||
          input.scan.longs.some((l) => l.name === "method" && l.value?.toUpperCase() === "DELETE"),
      }],
      destroys: "sends a DELETE to the forge's API",
    },
    {
      id: "vercel-remove",
      commands: ["vercel", "vc"],
      path: [/^(remove|rm)$/],
      destroys: "deletes deployments or a whole project",
    },
    {
      id: "fly-destroy",
      commands: ["fly", "flyctl"],
      path: [/^(apps|volumes|machines?|postgres)$/, /^(destroy|delete|remove|rm)$/],
      destroys: "destroys an app, volume or machine with its data",
      forms: [
        {
          commands: ["fly", "flyctl"],
          path: ["destroy"],
        },
      ],
    },
    {
      id: "heroku-destroy",
      commands: ["heroku"],
      path: [/^(apps:destroy|destroy|pg:reset|addons:destroy)$/],
      destroys: "destroys an app, its database or an add-on",
    },
    {
      id: "netlify-delete",
      commands: ["netlify", "ntl"],
      path: [/^sites:delete$/],
      destroys: "deletes a site",
    },
  ],
};
