/**
 * Says, before the test suite starts, which real agent clients its
 * end-to-end tests use and where they live: one line per pinned client
 * with the npm package, its version and its cache folder, and whether it
 * is there already or will be installed by the first test that needs it
 * (all four together are about 1.3 GB). It installs nothing itself and
 * reads nothing but the cache folders.
 *
 * `deno task test` and `deno task test:e2e` run it first:
 *
 * ```sh
 * deno run --allow-read --allow-env scripts/e2e_clients.ts
 * ```
 *
 * @module
 */

import { e2eCacheRoot } from "./npm_cache.ts";
import { CLAUDE_CODE_PACKAGE, CLAUDE_CODE_VERSION } from "./install_claude_code.ts";
import { CLIENT_PINS } from "./install_agents.ts";

/** One pinned client: its npm package spec, cache folder name and rough installed size. */
export interface PinnedClient {
  packageSpec: string;
  folder: string;
  /** Megabytes on disk once installed (and, for Copilot, unpacked), rounded. */
  sizeMb: number;
}

/** Installed sizes measured on Linux x64; they only say what order of download to expect. */
const SIZE_MB: Readonly<Record<string, number>> = {
  "claude-code": 390,
  codex: 430,
  gemini: 100,
  copilot: 430,
};

/** Every client a real-client test drives, Claude Code first. */
export const PINNED_CLIENTS: readonly PinnedClient[] = [
  {
    packageSpec: CLAUDE_CODE_PACKAGE,
    folder: `claude-code-${CLAUDE_CODE_VERSION}`,
    sizeMb: SIZE_MB["claude-code"],
  },
  ...Object.entries(CLIENT_PINS).map(([agent, pin]) => ({
    packageSpec: `${pin.packageName}@${pin.version}`,
    folder: `${agent}-${pin.version}`,
    sizeMb: SIZE_MB[agent],
  })),
];

/** The line for one client, given its cache root and whether its folder exists. */
export function clientLine(client: PinnedClient, root: string, present: boolean): string {
  const dir = `${root}/${client.folder}`;
  return present
    ? `real-client tests use ${client.packageSpec} from ${dir}`
    : `real-client tests install ${client.packageSpec} (about ${client.sizeMb} MB) with npm into ${dir} on first use`;
}

if (import.meta.main) {
  const root = e2eCacheRoot();
  for (const client of PINNED_CLIENTS) {
    const present = await Deno.stat(`${root}/${client.folder}`).then(
      (s) => s.isDirectory,
      () => false,
    );
    console.error(clientLine(client, root, present));
  }
}
