/**
 * The infrastructure-as-code pack: commands that destroy the
 * infrastructure a configuration manages.
 *
 * @module
 */

import type { Pack, PackRule } from "./pack.ts";
import { throughPackageManagers } from "./package_managers.ts";

const DESTROYS = "destroys every resource the configuration manages";

/** Terraform spells help with one dash (`-help`, `-h`) as well as two. */
const TERRAFORM_HELP = [{ arg: /^--?h(elp)?$/ }];

const CDK_DESTROY: PackRule = {
  id: "cdk-destroy",
  // `aws-cdk` is the package name `npx aws-cdk destroy` runs the program by.
  commands: ["cdk", "cdktf", "aws-cdk"],
  path: ["destroy"],
  destroys: DESTROYS,
};

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
      unless: TERRAFORM_HELP,
      destroys: DESTROYS,
    },
    {
      id: "terraform-apply-destroy",
      commands: ["terraform", "tofu", "terragrunt"],
      path: ["apply"],
      when: [{ arg: /^--?destroy$/ }],
      unless: TERRAFORM_HELP,
      destroys: DESTROYS,
    },
    {
      id: "terraform-apply-replace",
      commands: ["terraform", "tofu", "terragrunt"],
      path: ["apply"],
      when: [{ arg: /^--?replace(=|$)/ }],
      unless: TERRAFORM_HELP,
      destroys: "destroys and recreates the named resources, losing their data",
    },
    {
      id: "serverless-remove",
      commands: ["serverless", "sls"],
      path: ["remove"],
      destroys: "deletes the deployed service and its resources",
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
    throughPackageManagers(CDK_DESTROY, /^(cdk|cdktf|aws-cdk)$/),
    {
      id: "sam-delete",
      commands: ["sam"],
      path: ["delete"],
      destroys: "deletes the deployed stack and its resources",
    },
  ],
};
