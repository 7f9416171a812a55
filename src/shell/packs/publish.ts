/**
 * The publish pack (opt-in): releases that cannot be taken back. A version
 * published to a package registry can at best be deprecated or yanked,
 * never replaced under the same number; a pushed image tag or a release
 * tag starts whatever the project's CI does with it. Nothing is deleted
 * on the machine, so the pack is off unless an operator switches it on
 * (`"destructivePacks": ["+publish"]`, `GATEGUARD_DESTRUCTIVE_PACKS=publish`).
 *
 * @module
 */

import type { Pack } from "./pack.ts";
import { GIT_PUSH_VALUE_OPTIONS } from "../programs/mod.ts";

const PUBLISHES = "publishes a version to a registry; it cannot be replaced under the same number";
const WITHDRAWS = "removes a published version that others may depend on";
const PUSHES_IMAGE = "pushes an image tag to a registry, replacing what the tag named";
const RELEASES = "publishes a release or tag that starts the project's release pipeline";

/** A refspec that writes a tag: `refs/tags/…`, or a version number such as `v1.2.3`. */
const TAG_REFSPEC = /^\+?(?:[^:]*:)?(?:refs\/tags\/|v?\d+\.\d+)/;

/** The publish pack. */
export const PUBLISH_PACK: Pack = {
  id: "publish",
  summary: "opt-in: npm/cargo/gem/twine publish, docker push, gh release create, git push --tags",
  defaultOn: false,
  dryRunsAndHelp: true,
  rules: [
    {
      id: "npm-publish",
      commands: ["npm", "pnpm", "yarn", "bun", "deno", "jsr", "vsce", "ovsx", "changeset", "lerna"],
      path: ["publish"],
      destroys: PUBLISHES,
    },
    {
      id: "npm-unpublish",
      commands: ["npm", "pnpm", "yarn"],
      path: [/^(unpublish|deprecate)$/],
      destroys: WITHDRAWS,
    },
    {
      id: "cargo-publish",
      commands: ["cargo"],
      path: ["publish"],
      unless: [{ short: "n" }],
      destroys: PUBLISHES,
    },
    {
      id: "python-publish",
      commands: ["twine", "poetry", "uv", "hatch", "flit", "pdm"],
      path: [/^(upload|publish)$/],
      destroys: PUBLISHES,
      forms: [
        {
          commands: ["python*"],
          path: ["twine", "upload"],
        },
      ],
    },
    {
      id: "gem-push",
      commands: ["gem"],
      path: ["push"],
      destroys: PUBLISHES,
    },
    {
      id: "gem-yank",
      commands: ["gem", "cargo"],
      path: ["yank"],
      unless: [{ long: ["undo"] }],
      destroys: WITHDRAWS,
    },
    {
      id: "registry-push",
      commands: ["dotnet", "pod"],
      path: [/^(nuget|trunk)$/, "push"],
      destroys: PUBLISHES,
      forms: [
        {
          commands: ["nuget", "helm"],
          path: ["push"],
        },
      ],
    },
    {
      id: "maven-deploy",
      commands: ["mvn", "mvnw"],
      path: [/^(deploy|release:perform)$/],
      destroys: PUBLISHES,
    },
    {
      id: "gradle-publish",
      commands: ["gradle", "gradlew"],
      path: [/^(publish(?!ToMavenLocal)\w*|uploadArchives)$/],
      destroys: PUBLISHES,
    },
    {
      id: "pub-publish",
      commands: ["dart", "flutter"],
      path: ["pub", "publish"],
      unless: [{ short: "n" }],
      destroys: PUBLISHES,
    },
    {
      id: "hex-publish",
      commands: ["mix"],
      path: ["hex.publish"],
      destroys: PUBLISHES,
    },
    {
      id: "image-push",
      commands: ["docker", "podman", "nerdctl", "buildah", "skopeo"],
      path: [/^(push|copy)$/],
      destroys: PUSHES_IMAGE,
      forms: [
        {
          commands: ["docker", "podman"],
          path: ["buildx", "build"],
          when: [{ long: ["push"], arg: /^--output=.*push=true/ }],
        },
      ],
    },
    {
      id: "release-create",
      commands: ["gh", "glab"],
      path: ["release", "create"],
      destroys: RELEASES,
    },
    {
      id: "release-tool",
      commands: ["goreleaser", "semantic-release", "release-it"],
      unless: [{ long: ["snapshot"], arg: /^--skip=.*publish/ }],
      when: [{
        test: (input) => input.scan.operands.length === 0 || input.scan.operands[0] === "release",
      }],
      destroys: RELEASES,
    },
    {
      id: "git-push-tags",
      commands: ["git"],
      path: ["push"],
      options: GIT_PUSH_VALUE_OPTIONS,
      unless: [{ short: "n" }],
      when: [{ long: ["tags", "follow-tags"], operand: TAG_REFSPEC }],
      destroys: RELEASES,
    },
  ],
};
