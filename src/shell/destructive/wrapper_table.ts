/**
 * The wrapper table: every program that runs another command or a script,
 * by name, with the options it takes before that command. Data only; the
 * unwrapping that reads it is `wrappers.ts`.
 *
 * @module
 */

import type { OptionSpec } from "../programs/mod.ts";
import type { Dialect } from "../dialect.ts";

/** A wrapper that runs an argument vector after its own options. */
export interface ArgvWrapper {
  kind: "argv";
  options: OptionSpec;
  /** Operands the wrapper itself consumes before the command (timeout's duration). */
  operands?: number;
  /** `NAME=value` words before the command are environment assignments. */
  assignments?: boolean;
  /** Options with which nothing runs (`command -v`, `sudo -l`). */
  noRunShort?: string;
  noRunLong?: readonly string[];
  /** Options whose value is a code string (`flock -c`, `env -S`, `su -c`). */
  scriptShort?: string;
  scriptLong?: readonly string[];
  /** The wrapper runs a shell on stdin when no command follows (`su`). */
  shellWithoutCommand?: boolean;
  /** Options that run the command words joined as one shell command (`pnpm exec -c`). */
  shellModeShort?: string;
  shellModeLong?: readonly string[];
}

/** How a wrapper program hands on the command it runs. */
export type Wrapper =
  | ArgvWrapper
  | { kind: "shell" }
  | { kind: "eval"; dialect: Dialect }
  | { kind: "joined"; options: OptionSpec; operands: number }
  | {
    kind: "subcommand";
    /** The program's own options before the subcommand. */
    options: OptionSpec;
    /** Subcommands that run a command, and how (`npm exec`, `bundle exec`). */
    subcommands: Readonly<Record<string, Wrapper>>;
  }
  | { kind: "trap" }
  | { kind: "find" }
  | { kind: "applet" }
  | { kind: "pwsh" }
  | { kind: "cmd" }
  | { kind: "wsl" }
  | { kind: "start-process" };

const SHELL: Wrapper = { kind: "shell" };

/** `npx` and its kin run a package's program; `-c` runs a shell command. */
const PACKAGE_RUNNER: Wrapper = {
  kind: "argv",
  options: { shortValue: "pc", longValue: ["package", "call", "node-options"], permute: false },
  scriptShort: "c",
  scriptLong: ["call"],
};

/** `npm exec` / `npm x`: a package's program after npm's options; `-c` runs a shell command. */
const NPM_EXEC: Wrapper = {
  kind: "argv",
  options: {
    shortValue: "cpw",
    longValue: [
      "package",
      "call",
      "workspace",
      "prefix",
      "registry",
      "cache",
      "userconfig",
      "loglevel",
      "node-options",
      "script-shell",
    ],
    permute: false,
  },
  scriptShort: "c",
  scriptLong: ["call"],
};

/** `pnpm exec` and `pnpm dlx`; `-c` (`--shell-mode`) runs the rest as a shell command. */
const PNPM_RUN: Wrapper = {
  kind: "argv",
  options: {
    shortValue: "C",
    longValue: ["package", "dir", "filter", "resume-from", "workspace-concurrency", "reporter"],
    permute: false,
  },
  shellModeShort: "c",
  shellModeLong: ["shell-mode"],
};

/** `yarn dlx`, `bun x`: a fetched package's program. */
const DLX: Wrapper = {
  kind: "argv",
  options: { shortValue: "p", longValue: ["package"], permute: false },
};

/** `yarn exec`, `bun exec`: the rest is a shell command. */
const SHELL_LINE: Wrapper = { kind: "joined", options: { permute: false }, operands: 0 };

/** Python project runners (`uv run`, `poetry run`, …): a program from the project's environment. */
const PROJECT_RUN: Wrapper = {
  kind: "argv",
  options: {
    shortValue: "p",
    longValue: [
      "with",
      "with-editable",
      "with-requirements",
      "python",
      "directory",
      "project",
      "env-file",
      "group",
      "extra",
      "package",
      "index",
      "default-index",
      "from",
    ],
    permute: false,
  },
};

/** Every wrapper, by program name (see `programName`). */
export const WRAPPERS: Readonly<Record<string, Wrapper>> = {
  sudo: {
    kind: "argv",
    options: {
      shortValue: "ugpCDrtTUR",
      longValue: [
        "user",
        "group",
        "prompt",
        "close-from",
        "chdir",
        "role",
        "type",
        "command-timeout",
        "other-user",
        "chroot",
        "host",
      ],
      permute: false,
    },
    noRunShort: "elvV",
    noRunLong: ["list", "validate", "edit", "version", "help"],
    // `sudo NAME=value cmd` sets the variable for the command.
    assignments: true,
  },
  doas: { kind: "argv", options: { shortValue: "uC", permute: false } },
  npx: PACKAGE_RUNNER,
  bunx: PACKAGE_RUNNER,
  pnpx: PACKAGE_RUNNER,
  npm: {
    kind: "subcommand",
    options: { shortValue: "w", longValue: ["prefix", "workspace", "userconfig"], permute: false },
    subcommands: { exec: NPM_EXEC, x: NPM_EXEC },
  },
  pnpm: {
    kind: "subcommand",
    options: { shortValue: "CF", longValue: ["dir", "filter", "workspace-dir"], permute: false },
    subcommands: { exec: PNPM_RUN, dlx: PNPM_RUN },
  },
  yarn: {
    kind: "subcommand",
    options: { longValue: ["cwd"], permute: false },
    subcommands: { dlx: DLX, exec: SHELL_LINE },
  },
  bun: {
    kind: "subcommand",
    options: { longValue: ["cwd", "config"], permute: false },
    subcommands: { x: DLX, exec: SHELL_LINE },
  },
  bundle: {
    kind: "subcommand",
    options: { longValue: ["gemfile"], permute: false },
    subcommands: { exec: { kind: "argv", options: { longValue: ["gemfile"], permute: false } } },
  },
  uv: {
    kind: "subcommand",
    options: { longValue: ["directory", "project", "config-file", "cache-dir"], permute: false },
    subcommands: { run: PROJECT_RUN },
  },
  uvx: PROJECT_RUN,
  poetry: { kind: "subcommand", options: { permute: false }, subcommands: { run: PROJECT_RUN } },
  pipenv: { kind: "subcommand", options: { permute: false }, subcommands: { run: PROJECT_RUN } },
  pdm: { kind: "subcommand", options: { permute: false }, subcommands: { run: PROJECT_RUN } },
  pkexec: { kind: "argv", options: { longValue: ["user"], permute: false } },
  env: {
    kind: "argv",
    options: {
      shortValue: "uCSP",
      longValue: ["unset", "chdir", "split-string"],
      permute: false,
    },
    assignments: true,
    scriptShort: "S",
    scriptLong: ["split-string"],
  },
  command: { kind: "argv", options: { permute: false }, noRunShort: "vV" },
  builtin: { kind: "argv", options: { permute: false } },
  exec: { kind: "argv", options: { shortValue: "a", permute: false } },
  nohup: { kind: "argv", options: { permute: false } },
  setsid: { kind: "argv", options: { permute: false } },
  unbuffer: { kind: "argv", options: { permute: false } },
  caffeinate: { kind: "argv", options: { shortValue: "tw", permute: false } },
  nice: { kind: "argv", options: { shortValue: "n", longValue: ["adjustment"], permute: false } },
  ionice: { kind: "argv", options: { shortValue: "cnpPu", permute: false } },
  time: {
    kind: "argv",
    options: { shortValue: "fo", longValue: ["format", "output"], permute: false },
  },
  timeout: {
    kind: "argv",
    options: { shortValue: "sk", longValue: ["signal", "kill-after"], permute: false },
    operands: 1,
  },
  stdbuf: {
    kind: "argv",
    options: { shortValue: "ioe", longValue: ["input", "output", "error"], permute: false },
  },
  chroot: {
    kind: "argv",
    options: { longValue: ["userspec", "groups"], permute: false },
    operands: 1,
  },
  flock: {
    kind: "argv",
    options: {
      shortValue: "wEc",
      longValue: ["timeout", "conflict-exit-code", "command"],
      permute: false,
    },
    operands: 1,
    scriptShort: "c",
    scriptLong: ["command"],
  },
  xargs: {
    kind: "argv",
    options: {
      shortValue: "adEILnPs",
      longValue: [
        "arg-file",
        "delimiter",
        "eof",
        "max-lines",
        "max-args",
        "max-procs",
        "max-chars",
        "process-slot-var",
      ],
      permute: false,
    },
  },
  su: {
    kind: "argv",
    options: {
      shortValue: "sgGwc",
      longValue: [
        "shell",
        "group",
        "supp-group",
        "whitelist-environment",
        "command",
        "session-command",
      ],
      permute: false,
    },
    operands: 1,
    scriptShort: "c",
    scriptLong: ["command", "session-command"],
    shellWithoutCommand: true,
  },
  sh: SHELL,
  bash: SHELL,
  zsh: SHELL,
  dash: SHELL,
  ksh: SHELL,
  ash: SHELL,
  mksh: SHELL,
  yash: SHELL,
  fish: SHELL,
  eval: { kind: "eval", dialect: "bash" },
  "invoke-expression": { kind: "eval", dialect: "powershell" },
  iex: { kind: "eval", dialect: "powershell" },
  watch: {
    kind: "joined",
    options: { shortValue: "nq", longValue: ["interval"], permute: false },
    operands: 0,
  },
  ssh: {
    kind: "joined",
    options: { shortValue: "BbcDEeFIiJLlmOoPpQRSWw", permute: false },
    operands: 1,
  },
  trap: { kind: "trap" },
  find: { kind: "find" },
  busybox: { kind: "applet" },
  toybox: { kind: "applet" },
  pwsh: { kind: "pwsh" },
  powershell: { kind: "pwsh" },
  cmd: { kind: "cmd" },
  wsl: { kind: "wsl" },
  "start-process": { kind: "start-process" },
  saps: { kind: "start-process" },
};
