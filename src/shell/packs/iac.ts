/**
 * The infrastructure-as-code pack: commands that destroy the
 * infrastructure a configuration manages.
 *
 * @module
 */

import type { Pack } from "./pack.ts";

const DESTROYS = "destroys every resource the configuration manages";

/** The infrastructure-as-code pack. */
export const IAC_PACK: Pack = {
  id: "iac",
  summary: "terraform/tofu destroy and apply -destroy, pulumi destroy, cdk destroy, sam delete",
  defaultOn: true,
  dryRunsAndHelp: true,
  rules: [
    {
      id: "terraform-destroy",
      commands: ["terraform", "tofu", "terragrunt"],
      path: ["destroy"],
      destroys: DESTROYS,
    },
    {
      id: "terraform-apply-destroy",
      commands: ["terraform", "tofu", "terragrunt"],
      path: ["apply"],
      when: [{ arg: /^--?destroy$/ }],
      destroys: DESTROYS,
    },
    {
      id: "pulumi-destroy",
      commands: ["pulumi"],
      path: [/^(destroy|down)$/],
      unless: [{ long: ["preview-only"] }],
      destroys: DESTROYS,
    },
    {
      id: "pulumi-stack-rm",
      commands: ["pulumi"],
      path: ["stack", "rm"],
      destroys: "deletes a stack and its state",
    },
    {
      id: "cdk-destroy",
      commands: ["cdk", "cdktf"],
      path: ["destroy"],
      destroys: DESTROYS,
    },
    {
      id: "sam-delete",
      commands: ["sam"],
      path: ["delete"],
      destroys: "deletes the deployed stack and its resources",
    },
  ],
};
