/**
 * The containers pack: Docker, Podman and nerdctl commands that delete
 * volumes, images or every stopped container, and Compose teardowns that
 * take the volumes with them.
 *
 * @module
 */

import type { Pack } from "./pack.ts";

const ENGINES = ["docker", "podman", "nerdctl"];

/** Options of the engines that take a value before or after the subcommand. */
const ENGINE_OPTIONS = {
  shortValue: "Hc",
  longValue: ["host", "context", "config", "log-level", "filter", "format"],
};

/** Compose options that take a value, before or after `down` (`-f` names a file here). */
const COMPOSE_OPTIONS = {
  shortValue: "Hcfpt",
  longValue: [
    ...ENGINE_OPTIONS.longValue,
    "file",
    "project-name",
    "project-directory",
    "profile",
    "env-file",
    "rmi",
    "timeout",
  ],
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
    },
    {
      id: "compose-down-volumes",
      commands: ["docker-compose", "podman-compose"],
      path: ["down"],
      options: COMPOSE_OPTIONS,
      when: [{ short: "v", long: ["volumes"] }],
      destroys: "stops the project and deletes its named and anonymous volumes",
    },
  ],
};
