/**
 * Whether a checkout's bundle was built from the sources it holds now: what
 * `gateguard doctor` reports for a from-source install.
 */

import { assertEquals } from "../helpers/assert.ts";
import { REPO_ROOT } from "../helpers/cli.ts";
import { tempCheckout } from "../helpers/checkout.ts";
import { bundleState } from "../../src/setup/bundle_state.ts";
import { buildBundle } from "../../scripts/bundle.ts";

Deno.test("[doctor] a checkout's bundle is missing until built, current after, stale once a source or the recipe changes", async () => {
  const root = await tempCheckout({
    "scripts/bundle.ts": await Deno.readTextFile(`${REPO_ROOT}/scripts/bundle.ts`),
    "src/main.ts": 'console.log("one");\n',
  });
  assertEquals(await bundleState(root), "missing");
  await buildBundle(root);
  assertEquals(await bundleState(root), "current");
  await Deno.writeTextFile(`${root}/src/main.ts`, 'console.log("two");\n');
  assertEquals(await bundleState(root), "stale");
  await buildBundle(root);
  assertEquals(await bundleState(root), "current");
  await Deno.writeTextFile(`${root}/scripts/bundle.ts`, "// another recipe\n", { append: true });
  assertEquals(await bundleState(root), "stale");
  // A new file counts as much as a changed one.
  await buildBundle(root);
  await Deno.writeTextFile(`${root}/src/extra.ts`, "export {};\n");
  assertEquals(await bundleState(root), "stale");
});
