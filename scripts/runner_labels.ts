/**
 * The GitHub-hosted runner labels the workflows may use: the one list, with
 * the date it was last checked. A label GitHub retires is never picked up, a
 * job that names it waits until it times out, and every job that needs it
 * never starts, so the test suite refuses a workflow whose labels are not
 * listed here as current.
 *
 * To re-check: compare with the "Available Images" table of
 * github.com/actions/runner-images and the standard-runner table of
 * docs.github.com/en/actions/reference/runners/github-hosted-runners, mark
 * labels that left as `retired`, add new ones, and update the date.
 *
 * @module
 */

/** The date the list below was compared with GitHub's published lists. */
export const RUNNER_LABELS_CHECKED = "2026-12-01";

/** What a label is at the date above. */
export type RunnerStatus = "current" | "preview" | "deprecated" | "retired";

/** One runner label: the OS and CPU it gives, in Deno's terms, and its status. */
export interface RunnerLabel {
  label: string;
  os: "linux" | "darwin" | "windows";
  arch: "x86_64" | "aarch64";
  status: RunnerStatus;
}

/** Standard GitHub-hosted runner labels (free for public repositories). */
export const RUNNER_LABELS: readonly RunnerLabel[] = [
  { label: "ubuntu-latest", os: "linux", arch: "x86_64", status: "current" },
  { label: "ubuntu-24.04", os: "linux", arch: "x86_64", status: "current" },
  { label: "ubuntu-22.04", os: "linux", arch: "x86_64", status: "current" },
  { label: "ubuntu-26.04", os: "linux", arch: "x86_64", status: "preview" },
  { label: "ubuntu-slim", os: "linux", arch: "x86_64", status: "current" },
  { label: "ubuntu-24.04-arm", os: "linux", arch: "aarch64", status: "current" },
  { label: "ubuntu-22.04-arm", os: "linux", arch: "aarch64", status: "current" },
  { label: "ubuntu-26.04-arm", os: "linux", arch: "aarch64", status: "preview" },
  { label: "macos-latest", os: "darwin", arch: "aarch64", status: "current" },
  { label: "macos-26", os: "darwin", arch: "aarch64", status: "current" },
  { label: "macos-15", os: "darwin", arch: "aarch64", status: "current" },
  { label: "macos-14", os: "darwin", arch: "aarch64", status: "deprecated" },
  { label: "macos-26-intel", os: "darwin", arch: "x86_64", status: "current" },
  { label: "macos-15-intel", os: "darwin", arch: "x86_64", status: "current" },
  // Retired on 2025-12-04: a job naming it is never picked up.
  { label: "macos-13", os: "darwin", arch: "x86_64", status: "retired" },
  { label: "windows-latest", os: "windows", arch: "x86_64", status: "current" },
  { label: "windows-2025", os: "windows", arch: "x86_64", status: "current" },
  { label: "windows-2022", os: "windows", arch: "x86_64", status: "current" },
  { label: "windows-2019", os: "windows", arch: "x86_64", status: "retired" },
  { label: "windows-11-arm", os: "windows", arch: "aarch64", status: "current" },
];
