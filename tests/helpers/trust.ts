/**
 * Trusting a sandbox's project file the way `gateguard trust` does, without
 * a process: tests of what a trusted file's loosening keys do start here.
 * The trust command itself is tested end to end in tests/e2e/trust_test.ts.
 *
 * @module
 */

import { serializeTrustStore, trustDigest, trustStorePath } from "../../src/config/trust_store.ts";

/** Records the current content of `<root>/.gateguard.jsonc` as trusted in `stateDir`. */
export async function trustProjectFile(root: string, stateDir: string): Promise<void> {
  const file = await Deno.realPath(`${root}/.gateguard.jsonc`);
  const entry = {
    path: file,
    sha256: await trustDigest(await Deno.readTextFile(file)),
    trustedAt: new Date().toISOString(),
  };
  await Deno.mkdir(stateDir, { recursive: true });
  await Deno.writeTextFile(trustStorePath(stateDir), serializeTrustStore([entry]));
}
