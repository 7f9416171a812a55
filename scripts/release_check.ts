/**
 * The checks that keep a release from failing on release day, as pure
 * functions over the texts involved, and the command that runs them:
 *
 * - the release workflow builds exactly `TARGETS`, each on a current runner
 *   of the target's own OS and CPU (the smoke test runs the binary there),
 *   and `publish` waits for the tag check and attaches the installers;
 * - the README lists exactly the assets of `TARGETS`;
 * - the Claude Code plugin's manifest and its marketplace entry carry the
 *   version of src/version.ts (the plugin installs the binary of its own
 *   version, so a stale manifest would pin users to an old release);
 * - `scripts/install.ps1` and the plugin's PowerShell launchers parse (no
 *   PowerShell runs here to try them);
 * - a tag is `v` + the version of src/version.ts, and CHANGELOG.md has a
 *   section for that version.
 *
 * Usage:
 *   deno task release-check              workflow schema, matrix, runners, README, plugin, .ps1 files
 *   scripts/release_check.ts --tag v1.2.3   the tag gate the release workflow runs
 *
 * @module
 */

import { parse as parseYaml } from "yaml";
import { TARGETS } from "./compile.ts";
import { RUNNER_LABELS, RUNNER_LABELS_CHECKED, type RunnerLabel } from "./runner_labels.ts";
import { VERSION } from "../src/version.ts";

/** The release workflow, relative to the repository root. */
export const RELEASE_WORKFLOW = ".github/workflows/release.yml";

/** The step text that marks the tag gate in the workflow. */
export const TAG_GATE = "scripts/release_check.ts --tag";

type Target = { triple: string; asset: string };
/** The installers each release carries, so `latest/download/install.sh` always works. */
export const INSTALLERS = ["scripts/install.sh", "scripts/install.ps1"];

type Job = {
  "runs-on"?: unknown;
  needs?: unknown;
  steps?: { run?: unknown; uses?: unknown; with?: { files?: unknown } }[];
  strategy?: { matrix?: { include?: unknown } };
};

/** The OS and CPU a Deno target triple runs on, in runner-label terms. */
export function tripleHost(triple: string): Pick<RunnerLabel, "os" | "arch"> | null {
  const arch = triple.split("-")[0];
  const os = triple.includes("-linux-")
    ? "linux"
    : triple.includes("-apple-darwin")
    ? "darwin"
    : triple.includes("-windows-")
    ? "windows"
    : null;
  return os && (arch === "x86_64" || arch === "aarch64") ? { os, arch } : null;
}

function labelFindings(where: string, label: unknown, labels: readonly RunnerLabel[]): string[] {
  if (typeof label !== "string") {
    return [`${where}: runs-on ${JSON.stringify(label)} is not one label`];
  }
  const known = labels.find((l) => l.label === label);
  if (!known) {
    return [
      `${where}: runner label ${label} is not a GitHub-hosted label in scripts/runner_labels.ts`,
    ];
  }
  return known.status === "current"
    ? []
    : [`${where}: runner label ${label} is ${known.status} (as of ${RUNNER_LABELS_CHECKED})`];
}

function needsOf(job: Job): string[] {
  return typeof job.needs === "string" ? [job.needs] : Array.isArray(job.needs) ? job.needs : [];
}

/** Every job `name` waits for, directly or not. */
function ancestors(jobs: Record<string, Job>, name: string, seen = new Set<string>()): Set<string> {
  for (const need of needsOf(jobs[name] ?? {})) {
    if (!seen.has(need)) {
      seen.add(need);
      ancestors(jobs, need, seen);
    }
  }
  return seen;
}

/**
 * Findings on the parsed release workflow: the build matrix equals
 * `targets` (same triples, assets and order), every runner label is a
 * current one, each target builds on its own OS and CPU, and the job that
 * publishes waits for the tag gate.
 */
export function workflowFindings(
  workflow: unknown,
  targets: readonly Target[] = TARGETS,
  labels: readonly RunnerLabel[] = RUNNER_LABELS,
): string[] {
  const jobs = (workflow as { jobs?: Record<string, Job> } | null)?.jobs;
  if (typeof jobs !== "object" || jobs === null) return ["the workflow has no jobs"];
  const findings: string[] = [];
  const include = jobs.build?.strategy?.matrix?.include;
  const matrix = Array.isArray(include) ? include as Record<string, unknown>[] : [];
  if (matrix.length === 0) findings.push("jobs.build.strategy.matrix.include is missing or empty");
  const listed = matrix.map((m) => `${m.triple} ${m.asset}`);
  const wanted = targets.map((t) => `${t.triple} ${t.asset}`);
  if (matrix.length > 0 && listed.join("\n") !== wanted.join("\n")) {
    findings.push(
      `the build matrix [${listed.join(", ")}] differs from TARGETS [${wanted.join(", ")}]`,
    );
  }
  for (const entry of matrix) {
    const where = `matrix entry ${entry.triple}`;
    const found = labelFindings(where, entry.runner, labels);
    findings.push(...found);
    const host = tripleHost(String(entry.triple));
    const runner = labels.find((l) => l.label === entry.runner);
    if (
      found.length === 0 && host && runner && (host.os !== runner.os || host.arch !== runner.arch)
    ) {
      findings.push(
        `${where}: runner ${runner.label} is ${runner.os} ${runner.arch}, so the binary cannot be smoke-tested there`,
      );
    }
  }
  for (const [name, job] of Object.entries(jobs)) {
    const runsOn = job["runs-on"];
    if (runsOn === "${{ matrix.runner }}" && name === "build") continue;
    findings.push(...labelFindings(`job ${name}`, runsOn, labels));
  }
  const publishers = Object.entries(jobs).filter(([, job]) =>
    (job.steps ?? []).some((s) => String(s.uses ?? "").startsWith("softprops/action-gh-release"))
  );
  if (publishers.length === 0) findings.push("no job publishes the release");
  for (const [name, job] of publishers) {
    const files = (job.steps ?? []).map((s) => String(s.with?.files ?? "")).join("\n");
    for (const installer of INSTALLERS) {
      if (!files.split("\n").some((line) => line.trim() === installer)) {
        findings.push(
          `job ${name} does not attach ${installer}, which the README's install line fetches`,
        );
      }
    }
    const gated = [name, ...ancestors(jobs, name)].some((n) =>
      (jobs[n]?.steps ?? []).some((s) => String(s.run ?? "").includes(TAG_GATE))
    );
    if (!gated) findings.push(`job ${name} publishes without waiting for \`${TAG_GATE}\``);
  }
  return findings;
}

/** Release asset names as the README may spell them. */
const ASSET_MENTION = /gateguard-(?:linux|macos|darwin|windows|win)[\w.-]*\w/g;

/** Findings on the README: it names every asset of `targets`, and no other. */
export function readmeAssetFindings(
  readme: string,
  targets: readonly Target[] = TARGETS,
): string[] {
  const mentioned = new Set(readme.match(ASSET_MENTION) ?? []);
  const assets = new Set(targets.map((t) => t.asset));
  return [
    ...[...assets].filter((a) => !mentioned.has(a)).map((a) => `the README does not list ${a}`),
    ...[...mentioned].filter((m) => !assets.has(m)).map((m) =>
      `the README names ${m}, which no release ships`
    ),
  ];
}

/**
 * Findings on a release tag: it must be `v` + `version`, and the changelog
 * must have a `## [version]` section for it.
 */
export function tagFindings(tag: string, version: string, changelog: string): string[] {
  const findings: string[] = [];
  if (tag !== `v${version}`) {
    findings.push(
      `tag ${tag} does not match version ${version} in src/version.ts (expected v${version})`,
    );
  }
  const escaped = version.replace(/[.+]/g, "\\$&");
  if (!new RegExp(`^## \\[${escaped}\\]`, "m").test(changelog)) {
    findings.push(`CHANGELOG.md has no "## [${version}]" section`);
  }
  return findings;
}

/** The Claude Code plugin's manifest and its marketplace, relative to the repository root. */
export const PLUGIN_MANIFEST = ".claude-plugin/plugin.json";
/** The marketplace the repository is (it lists the plugin at its own root). */
export const PLUGIN_MARKETPLACE = ".claude-plugin/marketplace.json";

/** The PowerShell files a release carries, each checked to parse. */
export const PS1_FILES = ["scripts/install.ps1", "hooks/launch.ps1", "hooks/install_binary.ps1"];

function objectOf(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : {};
}

/**
 * Findings on the plugin manifests (parsed JSON): plugin.json's `version`,
 * and that of the marketplace's `gateguard` entry, must equal `version`.
 */
export function pluginVersionFindings(
  manifest: unknown,
  marketplace: unknown,
  version: string = VERSION,
): string[] {
  const findings: string[] = [];
  const own = objectOf(manifest).version;
  if (own !== version) {
    findings.push(
      `${PLUGIN_MANIFEST} has version ${JSON.stringify(own)}, not ${version} (src/version.ts)`,
    );
  }
  const plugins = objectOf(marketplace).plugins;
  const entries = Array.isArray(plugins)
    ? plugins.map(objectOf).filter((p) => p.name === "gateguard")
    : [];
  if (entries.length !== 1) {
    findings.push(`${PLUGIN_MARKETPLACE} must list the gateguard plugin once`);
  } else if (entries[0].version !== version) {
    findings.push(
      `${PLUGIN_MARKETPLACE} lists gateguard at version ${
        JSON.stringify(entries[0].version)
      }, not ${version} (src/version.ts)`,
    );
  }
  return findings;
}

async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await Deno.readTextFile(path));
  } catch {
    return null;
  }
}

/** Findings on the workflow, README and plugin manifest files of the checkout at `root`. */
export async function repositoryFindings(root: string): Promise<string[]> {
  const workflow = parseYaml(await Deno.readTextFile(`${root}/${RELEASE_WORKFLOW}`));
  return [
    ...workflowFindings(workflow),
    ...readmeAssetFindings(await Deno.readTextFile(`${root}/README.md`)),
    ...pluginVersionFindings(
      await readJson(`${root}/${PLUGIN_MANIFEST}`),
      await readJson(`${root}/${PLUGIN_MARKETPLACE}`),
    ),
  ];
}

if (import.meta.main) {
  const root = Deno.cwd();
  const [flag, tag] = Deno.args;
  let findings: string[];
  if (flag === "--tag" && tag !== undefined) {
    findings = tagFindings(tag, VERSION, await Deno.readTextFile(`${root}/CHANGELOG.md`));
  } else if (flag === undefined) {
    const { validateWorkflowFile } = await import("./workflow_schema.ts");
    const { ps1SyntaxErrors } = await import("./ps1_syntax.ts");
    const schema = await validateWorkflowFile(`${root}/${RELEASE_WORKFLOW}`);
    const ps1: string[] = [];
    for (const file of PS1_FILES) {
      const errors = await ps1SyntaxErrors(await Deno.readTextFile(`${root}/${file}`));
      ps1.push(...errors.map((e) => `${file}:${e}`));
    }
    findings = [
      ...(await repositoryFindings(root)),
      ...(schema.ok ? schema.errors : [schema.reason]),
      ...ps1,
    ];
  } else {
    console.error("usage: release_check.ts [--tag <tag>]");
    Deno.exit(2);
  }
  for (const f of findings) console.error(`release-check: ${f}`);
  if (findings.length > 0) Deno.exit(1);
  console.error("release-check: ok");
}
