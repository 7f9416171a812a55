/**
 * The containers pack: Docker, Podman and nerdctl commands that delete
 * volumes, images or every stopped container, and Compose teardowns that
 * take the volumes with them.
 *
 * @module
 */

import type { Pack } from "./pack.ts";
import type { OptionSpec } from "../programs/mod.ts";

const ENGINES = ["docker", "podman", "nerdctl"];

/** Options of the engines that take a value before or after the subcommand. */
const ENGINE_OPTIONS: OptionSpec = {
  short: { H: "value", c: "value" },
  long: {
    host: "value",
    context: "value",
    config: "value",
    "log-level": "value",
    filter: "value",
    format: "value",
  },
};

/** Compose options that take a value, before or after `down` (`-f` names a file here). */
const COMPOSE_OPTIONS: OptionSpec = {
  short: { H: "value", c: "value", f: "value", p: "value", t: "value" },
  long: {
    ...ENGINE_OPTIONS.long,
    file: "value",
    "project-name": "value",
    "project-directory": "value",
    profile: "value",
    "env-file": "value",
    rmi: "value",
    timeout: "value",
  },
};

/** The containers pack. */
export const CONTAINERS_PACK: Pack = {
  id: "containers",
  summary: "docker/podman system, volume and image prunes, rm -f -v, compose down -v",
  defaultOn: true,
  dryRunsAndHelp: true,
  rules: [
    {
      id: "system-prune",
      commands: ENGINES,
      path: ["system", "prune"],
      options: ENGINE_OPTIONS,
      destroys:
        "deletes stopped containers, unused networks, images and build cache (volumes with --volumes)",
    },
    {
      id: "system-reset",
      commands: ["podman"],
      path: ["system", "reset"],
      options: ENGINE_OPTIONS,
      destroys: "deletes every container, image, volume and network of the engine",
    },
    {
      id: "volume-delete",
      commands: ENGINES,
      path: ["volume", /^(prune|rm|remove)$/],
      options: ENGINE_OPTIONS,
      destroys: "deletes volumes and the data stored in them",
    },
    {
      id: "container-rm-volumes",
      commands: ENGINES,
      path: [/^(rm|container)$/],
      options: ENGINE_OPTIONS,
      when: [{ short: "v", long: ["volumes"] }, { short: "f", long: ["force"] }],
      destroys: "force-removes containers with their anonymous volumes",
    },
    {
      id: "image-prune-all",
      commands: ENGINES,
      path: ["image", "prune"],
      options: ENGINE_OPTIONS,
      when: [{ short: "a", long: ["all"] }],
      destroys: "deletes every image no container uses",
    },
    {
      id: "container-prune",
      commands: ENGINES,
      path: [/^(container|network|builder|buildx)$/, "prune"],
      options: ENGINE_OPTIONS,
      when: [{ short: "af", long: ["all", "force"] }],
      destroys: "deletes every stopped container, unused network or build cache",
    },
    {
      id: "compose-down-volumes",
      commands: ENGINES,
      path: ["compose", "down"],
      options: COMPOSE_OPTIONS,
      when: [{ short: "v", long: ["volumes"] }],
      destroys: "stops the project and deletes its named and anonymous volumes",
      forms: [
        {
          commands: ["docker-compose", "podman-compose"],
          path: ["down"],
          options: COMPOSE_OPTIONS,
          when: [{ short: "v", long: ["volumes"] }],
        },
      ],
    },
  ],
};
