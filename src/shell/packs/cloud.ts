/**
 * The cloud pack: object-store deletes, bucket removals, and delete or
 * terminate calls of the AWS, Google Cloud and Azure command lines.
 *
 * @module
 */

import type { Pack } from "./pack.ts";
import type { OptionSpec } from "../programs/mod.ts";

/** AWS CLI options that take a value before the service. */
const AWS_OPTIONS: OptionSpec = {
  long: {
    region: "value",
    profile: "value",
    "endpoint-url": "value",
    output: "value",
    query: "value",
    "cli-input-json": "value",
  },
};

/** AWS calls that delete or terminate, by operation name. */
const AWS_DELETES =
  /^(delete-|terminate-|remove-|purge-|deregister-|batch-delete-|schedule-key-deletion$|empty-)/;

/** `aws <service> <operation> help` only prints the operation's manual. */
const AWS_HELP = [{ operand: /^help$/ }];

/** The cloud pack. */
export const CLOUD_PACK: Pack = {
  id: "cloud",
  summary:
    "aws s3 rm --recursive / rb --force / delete-* calls, gcloud … delete, gsutil rm -r, az … delete",
  defaultOn: true,
  dryRunsAndHelp: true,
  rules: [
    {
      id: "aws-s3-recursive-rm",
      commands: ["aws"],
      path: ["s3", "rm"],
      options: AWS_OPTIONS,
      when: [{ long: ["recursive"] }],
      destroys: "deletes every object under the prefix",
    },
    {
      id: "aws-s3-rb-force",
      commands: ["aws"],
      path: ["s3", "rb"],
      options: AWS_OPTIONS,
      when: [{ long: ["force"] }],
      destroys: "deletes a bucket and every object in it",
    },
    {
      id: "aws-s3-sync-delete",
      commands: ["aws"],
      path: ["s3", "sync"],
      options: AWS_OPTIONS,
      when: [{ long: ["delete"] }],
      destroys: "deletes destination objects the source lacks",
    },
    {
      id: "aws-delete-call",
      commands: ["aws"],
      path: [/^[a-z0-9-]+$/, AWS_DELETES],
      options: AWS_OPTIONS,
      unless: AWS_HELP,
      destroys: "deletes or terminates a cloud resource",
    },
    {
      id: "gcloud-delete",
      commands: ["gcloud"],
      when: [{ test: (input) => input.scan.operands.slice(0, 5).includes("delete") }],
      destroys: "deletes a cloud resource",
    },
    {
      id: "gsutil-rm",
      commands: ["gsutil", "gcloud-storage"],
      path: [/^(rm|rb)$/],
      destroys: "deletes objects or a bucket",
    },
    {
      id: "gsutil-rsync-delete",
      commands: ["gsutil"],
      path: ["rsync"],
      when: [{ short: "d" }],
      unless: [{ short: "n" }],
      destroys: "deletes destination objects the source lacks",
      forms: [
        {
          commands: ["gcloud"],
          path: ["storage", "rsync"],
          when: [{ long: ["delete-unmatched-destination-objects"] }],
        },
      ],
    },
    {
      id: "gcloud-storage-rm",
      commands: ["gcloud"],
      path: ["storage", /^(rm|buckets)$/],
      unless: [{ test: (input) => input.scan.operands[0] === "list" }],
      destroys: "deletes objects or a bucket",
    },
    {
      id: "rclone-delete",
      commands: ["rclone"],
      // `sync` deletes what the source lacks from the destination.
      path: [/^(purge|delete|deletefile|rmdir|rmdirs|sync|cleanup)$/],
      unless: [{ short: "n" }],
      destroys: "deletes files or whole paths on a remote",
    },
    {
      id: "firebase-delete",
      commands: ["firebase"],
      path: [/^[a-z]+:(delete|remove)$/i],
      destroys: "deletes Firebase data, functions or other deployed resources",
    },
    {
      id: "az-delete",
      commands: ["az"],
      when: [{
        test: (input) =>
          input.scan.operands.slice(0, 5).some((o) => /^(delete|purge|delete-batch)$/.test(o)),
      }],
      destroys: "deletes an Azure resource or resource group",
    },
  ],
};
