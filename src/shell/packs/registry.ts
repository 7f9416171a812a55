/**
 * Every destructive pack with its rules loaded, for tests and tools that
 * read all of them at once. The hook never imports this module: it knows
 * the packs by their rows (manifest.ts) and loads a pack's rules when a
 * command reaches one of its programs.
 *
 * @module
 */

import type { Pack } from "./pack.ts";
import { CORE_PACK } from "./core.ts";
import { FILESYSTEM_PACK } from "./filesystem.ts";
import { INTERPRETERS_PACK } from "./interpreters.ts";
import { CONTAINERS_PACK } from "./containers.ts";
import { KUBERNETES_PACK } from "./kubernetes.ts";
import { IAC_PACK } from "./iac.ts";
import { CLOUD_PACK } from "./cloud.ts";
import { HOSTING_PACK } from "./hosting.ts";
import { DATABASES_PACK } from "./databases.ts";
import { FRAMEWORKS_PACK } from "./frameworks.ts";
import { GIT_HISTORY_PACK } from "./git_history.ts";
import { PUBLISH_PACK } from "./publish.ts";
import { VERSION_CONTROL_PACK } from "./version_control.ts";

/** Every pack, in the order `gateguard doctor` and the docs list them. */
export const PACKS: readonly Pack[] = [
  CORE_PACK,
  FILESYSTEM_PACK,
  INTERPRETERS_PACK,
  CONTAINERS_PACK,
  KUBERNETES_PACK,
  IAC_PACK,
  CLOUD_PACK,
  HOSTING_PACK,
  DATABASES_PACK,
  FRAMEWORKS_PACK,
  GIT_HISTORY_PACK,
  VERSION_CONTROL_PACK,
  PUBLISH_PACK,
];
