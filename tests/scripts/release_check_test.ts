/**
 * The release checks: the workflow against GitHub's schema, its matrix
 * against TARGETS, its runner labels against the dated list, the README's
 * asset list, and the tag gate that refuses to publish a mismatched version.
 */

import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { REPO_ROOT } from "../helpers/cli.ts";
import { parse as parseYaml } from "yaml";
import {
  INSTALLERS,
  PLUGIN_MANIFEST,
  PLUGIN_MARKETPLACE,
  pluginVersionFindings,
  readmeAssetFindings,
  RELEASE_WORKFLOW,
  repositoryFindings,
  TAG_GATE,
  tagFindings,
  tripleHost,
  workflowFindings,
} from "../../scripts/release_check.ts";
import { errorLines, validateWorkflowText } from "../../scripts/workflow_schema.ts";
import { TARGETS } from "../../scripts/compile.ts";
import { RUNNER_LABELS, RUNNER_LABELS_CHECKED } from "../../scripts/runner_labels.ts";
import { VERSION } from "../../src/version.ts";

const workflowText = await Deno.readTextFile(`${REPO_ROOT}/${RELEASE_WORKFLOW}`);

/** A fresh parsed copy of the real workflow, to break in one place. */
// deno-lint-ignore no-explicit-any
const workflow = (): any => parseYaml(workflowText);

const schema = await validateWorkflowText("name: probe\non: push\njobs: {}\n");
if (!schema.ok) console.log(`skipping the workflow schema tests: ${schema.reason}`);

Deno.test({
  name: "[release] the release workflow validates against GitHub's workflow schema",
  ignore: !schema.ok,
  fn: async () => {
    assertEquals(await validateWorkflowText(workflowText), { ok: true, errors: [] });
  },
});

Deno.test({
  name: "[release] the schema check rejects a misspelt key and a job without a runner",
  ignore: !schema.ok,
  fn: async () => {
    const broken = workflowText.replace("runs-on: ubuntu-latest", "runs_on: ubuntu-latest");
    const result = await validateWorkflowText(broken);
    assert(result.ok && result.errors.some((e) => e.includes("runs_on")), JSON.stringify(result));
  },
});

Deno.test("[release] validator errors are flattened to one line per path and detail", () => {
  assertEquals(
    errorLines([
      {
        code: "one_of",
        path: "/jobs/a",
        title: "OneOf",
        states: [
          { errors: [{ code: "properties", path: "/jobs/a", title: "t", detail: "no stepz" }] },
          {
            errors: [
              { code: "properties", path: "/jobs/a", title: "t", detail: "no stepz" },
              { code: "required", path: "/jobs/a/uses", title: "This property is required" },
            ],
          },
        ],
      },
    ]),
    ["/jobs/a: no stepz", "/jobs/a/uses: This property is required"],
  );
});

Deno.test("[release] the repository's workflow and README pass every release check", async () => {
  assertEquals(await repositoryFindings(REPO_ROOT), []);
});

Deno.test("[release] the build matrix must equal TARGETS, in order", () => {
  const dropped = workflow();
  dropped.jobs.build.strategy.matrix.include.pop();
  assertStringIncludes(workflowFindings(dropped).join("\n"), "differs from TARGETS");
  const renamed = workflow();
  renamed.jobs.build.strategy.matrix.include[0].asset = "gateguard-linux-amd64";
  assertStringIncludes(workflowFindings(renamed).join("\n"), "differs from TARGETS");
  const none = workflow();
  delete none.jobs.build.strategy;
  assertStringIncludes(workflowFindings(none).join("\n"), "missing or empty");
  assertEquals(workflowFindings(null), ["the workflow has no jobs"]);
});

Deno.test("[release] a retired, unknown or foreign runner label is refused", () => {
  const retired = workflow();
  retired.jobs.build.strategy.matrix.include[2].runner = "macos-13";
  assertEquals(workflowFindings(retired), [
    `matrix entry x86_64-apple-darwin: runner label macos-13 is retired (as of ${RUNNER_LABELS_CHECKED})`,
  ]);
  const unknown = workflow();
  unknown.jobs.publish["runs-on"] = "ubuntu-lts";
  assertStringIncludes(
    workflowFindings(unknown).join("\n"),
    "job publish: runner label ubuntu-lts",
  );
  // An arm64 binary built on an x64 runner could not be smoke-tested there.
  const foreign = workflow();
  foreign.jobs.build.strategy.matrix.include[1].runner = "ubuntu-latest";
  assertEquals(workflowFindings(foreign), [
    "matrix entry aarch64-unknown-linux-gnu: runner ubuntu-latest is linux x86_64, so the binary cannot be smoke-tested there",
  ]);
  const list = workflow();
  list.jobs.test["runs-on"] = ["self-hosted", "linux"];
  assertStringIncludes(workflowFindings(list).join("\n"), "is not one label");
});

Deno.test("[release] publishing must wait for the tag gate and attach the installers", () => {
  const ungated = workflow();
  ungated.jobs.test.steps = ungated.jobs.test.steps.filter((s: { run?: string }) =>
    !String(s.run ?? "").includes(TAG_GATE)
  );
  assertEquals(workflowFindings(ungated), [
    `job publish publishes without waiting for \`${TAG_GATE}\``,
  ]);
  const bare = workflow();
  bare.jobs.publish.steps.at(-1).with.files = "dist/gateguard-*\ndist/SHA256SUMS\n";
  assertEquals(
    workflowFindings(bare),
    INSTALLERS.map((i) =>
      `job publish does not attach ${i}, which the README's install line fetches`
    ),
  );
  const detached = workflow();
  delete detached.jobs.publish.needs;
  assertEquals(workflowFindings(detached).length, 1);
});

Deno.test("[release] the runner list is dated and each label appears once, with the host of every target", () => {
  assert(/^\d{4}-\d{2}-\d{2}$/.test(RUNNER_LABELS_CHECKED));
  const labels = RUNNER_LABELS.map((l) => l.label);
  assertEquals(labels.length, new Set(labels).size);
  for (const t of TARGETS) {
    const host = tripleHost(t.triple);
    assert(host !== null, t.triple);
    assert(
      RUNNER_LABELS.some((l) => l.status === "current" && l.os === host.os && l.arch === host.arch),
      `no current runner for ${t.triple}`,
    );
  }
  assertEquals(tripleHost("riscv64gc-unknown-linux-gnu"), null);
});

Deno.test("[release] the README lists exactly the release assets", async () => {
  const readme = await Deno.readTextFile(`${REPO_ROOT}/README.md`);
  assertEquals(readmeAssetFindings(readme), []);
  assertEquals(
    readmeAssetFindings(readme.replaceAll("gateguard-macos-x64", "gateguard-macos-intel")),
    [
      "the README does not list gateguard-macos-x64",
      "the README names gateguard-macos-intel, which no release ships",
    ],
  );
});

Deno.test("[release] the plugin manifest and its marketplace entry carry the version of src/version.ts", async () => {
  const manifest = JSON.parse(await Deno.readTextFile(`${REPO_ROOT}/${PLUGIN_MANIFEST}`));
  const marketplace = JSON.parse(await Deno.readTextFile(`${REPO_ROOT}/${PLUGIN_MARKETPLACE}`));
  assertEquals(manifest.version, VERSION);
  assertEquals(pluginVersionFindings(manifest, marketplace), []);
  const entry = (version: unknown) => ({
    ...marketplace,
    plugins: [{ ...marketplace.plugins[0], version }],
  });
  assertEquals(pluginVersionFindings({ ...manifest, version: "0.0.9" }, marketplace, "0.1.0"), [
    '.claude-plugin/plugin.json has version "0.0.9", not 0.1.0 (src/version.ts)',
  ]);
  assertEquals(pluginVersionFindings({ name: "gateguard" }, entry("0.1.0"), "0.1.0"), [
    ".claude-plugin/plugin.json has version undefined, not 0.1.0 (src/version.ts)",
  ]);
  assertEquals(pluginVersionFindings(manifest, entry("0.0.9"), VERSION), [
    `.claude-plugin/marketplace.json lists gateguard at version "0.0.9", not ${VERSION} (src/version.ts)`,
  ]);
  assertEquals(pluginVersionFindings(manifest, { ...marketplace, plugins: [] }, VERSION), [
    ".claude-plugin/marketplace.json must list the gateguard plugin once",
  ]);
  assertEquals(pluginVersionFindings(null, null, VERSION).length, 2);
});

Deno.test("[release] a tag must be v + the version, with a changelog section", () => {
  const changelog = `# Changelog\n\n## [Unreleased]\n\n## [${VERSION}] - 2026-12-01\n`;
  assertEquals(tagFindings(`v${VERSION}`, VERSION, changelog), []);
  assertEquals(tagFindings("v9.9.9", VERSION, changelog), [
    `tag v9.9.9 does not match version ${VERSION} in src/version.ts (expected v${VERSION})`,
  ]);
  assertEquals(tagFindings(VERSION, VERSION, changelog).length, 1);
  assertEquals(tagFindings(`v${VERSION}`, VERSION, "## [Unreleased]\n"), [
    `CHANGELOG.md has no "## [${VERSION}]" section`,
  ]);
  // A dot in the version is not a wildcard.
  assertEquals(tagFindings("v1.2.3", "1.2.3", "## [1x2x3]\n").length, 1);
});

Deno.test("[release] the tag gate the workflow runs exits 1 on a mismatched tag and 0 on this version", async () => {
  const gate = async (tag: string) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-read", "scripts/release_check.ts", "--tag", tag],
      cwd: REPO_ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
  };
  const bad = await gate("v0.0.0-not-this");
  assertEquals(bad.code, 1);
  assertStringIncludes(bad.stderr, "release-check: tag v0.0.0-not-this does not match version");
  assertEquals((await gate(`v${VERSION}`)).code, 0);
  assertStringIncludes(workflowText, `${TAG_GATE} "\${GITHUB_REF_NAME}"`);
});
