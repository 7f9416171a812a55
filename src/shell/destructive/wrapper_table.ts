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
  /**
   * Its options. Those whose value is a code string (`flock -c`, `env -S`,
   * `su -c`) are `runs-value`; those with which nothing runs (`command -v`,
   * `sudo -l`) `no-run`; those that run the command words joined as one
   * shell command (`pnpm exec -c`) `shell-mode`.
   */
  options: OptionSpec;
  /** Operands the wrapper itself consumes before the command (timeout's duration). */
  operands?: number;
  /** `NAME=value` words before the command are environment assignments. */
  assignments?: boolean;
  /** The wrapper runs a shell on stdin when no command follows (`su`). */
  shellWithoutCommand?: boolean;
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
  options: {
    short: { p: "value", c: "runs-value" },
    long: { package: "value", call: "runs-value", "node-options": "value" },
    permute: false,
  },
};

/** `npm exec` / `npm x`: a package's program after npm's options; `-c` runs a shell command. */
const NPM_EXEC: Wrapper = {
  kind: "argv",
  options: {
    short: { c: "runs-value", p: "value", w: "value" },
    long: {
      package: "value",
      call: "runs-value",
      workspace: "value",
      prefix: "value",
      registry: "value",
      cache: "value",
      userconfig: "value",
      loglevel: "value",
      "node-options": "value",
      "script-shell": "value",
    },
    permute: false,
  },
};

/** `pnpm exec` and `pnpm dlx`; `-c` (`--shell-mode`) runs the rest as a shell command. */
const PNPM_RUN: Wrapper = {
  kind: "argv",
  options: {
    short: { C: "value", c: "shell-mode" },
    long: {
      package: "value",
      dir: "value",
      filter: "value",
      "resume-from": "value",
      "workspace-concurrency": "value",
      reporter: "value",
      "shell-mode": "shell-mode",
    },
    permute: false,
  },
};

/** `yarn dlx`, `bun x`: a fetched package's program. */
const DLX: Wrapper = {
  kind: "argv",
  options: { short: { p: "value" }, long: { package: "value" }, permute: false },
};

/** `yarn exec`, `bun exec`: the rest is a shell command. */
const SHELL_LINE: Wrapper = { kind: "joined", options: { permute: false }, operands: 0 };

/** Python project runners (`uv run`, `poetry run`, …): a program from the project's environment. */
const PROJECT_RUN: Wrapper = {
  kind: "argv",
  options: {
    short: { p: "value" },
    long: {
      with: "value",
      "with-editable": "value",
      "with-requirements": "value",
      python: "value",
      directory: "value",
      project: "value",
      "env-file": "value",
      group: "value",
      extra: "value",
      package: "value",
      index: "value",
      "default-index": "value",
      from: "value",
    },
    permute: false,
  },
};

/** Every wrapper, by program name (see `programName`). */
export const WRAPPERS: Readonly<Record<string, Wrapper>> = {
  sudo: {
    kind: "argv",
    options: {
      short: {
        u: "value",
        g: "value",
        p: "value",
        C: "value",
        D: "value",
        r: "value",
        t: "value",
        T: "value",
        U: "value",
        R: "value",
        e: "no-run",
        l: "no-run",
        v: "no-run",
        V: "no-run",
      },
      long: {
        user: "value",
        group: "value",
        prompt: "value",
        "close-from": "value",
        chdir: "value",
        role: "value",
        type: "value",
        "command-timeout": "value",
        "other-user": "value",
        chroot: "value",
        host: "value",
        list: "no-run",
        validate: "no-run",
        edit: "no-run",
        version: "no-run",
        help: "no-run",
      },
      permute: false,
    },
    // `sudo NAME=value cmd` sets the variable for the command.
    assignments: true,
  },
  doas: { kind: "argv", options: { short: { u: "value", C: "value" }, permute: false } },
  npx: PACKAGE_RUNNER,
  bunx: PACKAGE_RUNNER,
  pnpx: PACKAGE_RUNNER,
  npm: {
    kind: "subcommand",
    options: {
      short: { w: "value" },
      long: { prefix: "value", workspace: "value", userconfig: "value" },
      permute: false,
    },
    subcommands: { exec: NPM_EXEC, x: NPM_EXEC },
  },
  pnpm: {
    kind: "subcommand",
    options: {
      short: { C: "value", F: "value" },
      long: { dir: "value", filter: "value", "workspace-dir": "value" },
      permute: false,
    },
    subcommands: { exec: PNPM_RUN, dlx: PNPM_RUN },
  },
  yarn: {
    kind: "subcommand",
    options: { long: { cwd: "value" }, permute: false },
    subcommands: { dlx: DLX, exec: SHELL_LINE },
  },
  bun: {
    kind: "subcommand",
    options: { long: { cwd: "value", config: "value" }, permute: false },
    subcommands: { x: DLX, exec: SHELL_LINE },
  },
  bundle: {
    kind: "subcommand",
    options: { long: { gemfile: "value" }, permute: false },
    subcommands: {
      exec: { kind: "argv", options: { long: { gemfile: "value" }, permute: false } },
    },
  },
  uv: {
    kind: "subcommand",
    options: {
      long: { directory: "value", project: "value", "config-file": "value", "cache-dir": "value" },
      permute: false,
    },
    subcommands: { run: PROJECT_RUN },
  },
  uvx: PROJECT_RUN,
  poetry: { kind: "subcommand", options: { permute: false }, subcommands: { run: PROJECT_RUN } },
  pipenv: { kind: "subcommand", options: { permute: false }, subcommands: { run: PROJECT_RUN } },
  pdm: { kind: "subcommand", options: { permute: false }, subcommands: { run: PROJECT_RUN } },
  pkexec: { kind: "argv", options: { long: { user: "value" }, permute: false } },
  env: {
    kind: "argv",
    options: {
      short: { u: "value", C: "value", S: "runs-value", P: "value" },
      long: { unset: "value", chdir: "value", "split-string": "runs-value" },
      permute: false,
    },
    assignments: true,
  },
  command: { kind: "argv", options: { short: { v: "no-run", V: "no-run" }, permute: false } },
  builtin: { kind: "argv", options: { permute: false } },
  exec: { kind: "argv", options: { short: { a: "value" }, permute: false } },
  nohup: { kind: "argv", options: { permute: false } },
  setsid: { kind: "argv", options: { permute: false } },
  unbuffer: { kind: "argv", options: { permute: false } },
  caffeinate: { kind: "argv", options: { short: { t: "value", w: "value" }, permute: false } },
  nice: {
    kind: "argv",
    options: { short: { n: "value" }, long: { adjustment: "value" }, permute: false },
  },
  ionice: {
    kind: "argv",
    options: {
      short: { c: "value", n: "value", p: "value", P: "value", u: "value" },
      permute: false,
    },
  },
  time: {
    kind: "argv",
    options: {
      short: { f: "value", o: "value" },
      long: { format: "value", output: "value" },
      permute: false,
    },
  },
  timeout: {
    kind: "argv",
    options: {
      short: { s: "value", k: "value" },
      long: { signal: "value", "kill-after": "value" },
      permute: false,
    },
    operands: 1,
  },
  stdbuf: {
    kind: "argv",
    options: {
      short: { i: "value", o: "value", e: "value" },
      long: { input: "value", output: "value", error: "value" },
      permute: false,
    },
  },
  chroot: {
    kind: "argv",
    options: { long: { userspec: "value", groups: "value" }, permute: false },
    operands: 1,
  },
  flock: {
    kind: "argv",
    options: {
      short: { w: "value", E: "value", c: "runs-value" },
      long: { timeout: "value", "conflict-exit-code": "value", command: "runs-value" },
      permute: false,
    },
    operands: 1,
  },
  xargs: {
    kind: "argv",
    options: {
      short: {
        a: "value",
        d: "value",
        E: "value",
        I: "value",
        L: "value",
        n: "value",
        P: "value",
        s: "value",
      },
      long: {
        "arg-file": "value",
        delimiter: "value",
        eof: "value",
        "max-lines": "value",
        "max-args": "value",
        "max-procs": "value",
        "max-chars": "value",
        "process-slot-var": "value",
      },
      permute: false,
    },
  },
  su: {
    kind: "argv",
    options: {
      short: { s: "value", g: "value", G: "value", w: "value", c: "runs-value" },
      long: {
        shell: "value",
        group: "value",
        "supp-group": "value",
        "whitelist-environment": "value",
        command: "runs-value",
        "session-command": "runs-value",
      },
      permute: false,
    },
    operands: 1,
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
  // Shells of other syntaxes: a destructive command reads the same in their `-c` code.
  xonsh: SHELL,
  nu: SHELL,
  elvish: SHELL,
  tcsh: SHELL,
  csh: SHELL,
  eval: { kind: "eval", dialect: "bash" },
  "invoke-expression": { kind: "eval", dialect: "powershell" },
  iex: { kind: "eval", dialect: "powershell" },
  watch: {
    kind: "joined",
    options: { short: { n: "value", q: "value" }, long: { interval: "value" }, permute: false },
    operands: 0,
  },
  ssh: {
    kind: "joined",
    options: {
      short: {
        B: "value",
        b: "value",
        c: "value",
        D: "value",
        E: "value",
        e: "value",
        F: "value",
        I: "value",
        i: "value",
        J: "value",
        L: "value",
        l: "value",
        m: "value",
        O: "value",
        o: "value",
        P: "value",
        p: "value",
        Q: "value",
        R: "value",
        S: "value",
        W: "value",
        w: "value",
      },
      permute: false,
    },
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

/**
 * Programs that run a command given somewhere among their arguments, after
 * options whose value-taking rules differ per tool and version (containers,
 * clusters, job runners). Rather than model each option table, every word
 * that could start the inner command is tried: a false start is only a
 * harmless word list, while a missed start would let the command through.
 */
export const COMMAND_RUNNERS: ReadonlySet<string> = new Set([
  "docker",
  "podman",
  "nerdctl",
  "kubectl",
  "oc",
  "coproc",
  "parallel",
  "script",
  "runuser",
  "chroot",
  "unshare",
  "nsenter",
  "setsid",
  "firejail",
  "flatpak-spawn",
  "systemd-run",
  "watch",
  // Windows' elevation tools, which run the command after their options.
  "gsudo",
  // Dev environments and watchers that run the command after their own words.
  "rlwrap",
  "entr",
  "watchexec",
  "direnv",
  "mise",
  "rtx",
  "asdf",
  "nix",
  "nix-shell",
  "conda",
  "mamba",
  "micromamba",
  "pixi",
  "devbox",
  // Wrappers that run a command after options and operands of their own.
  "chrt",
  "taskset",
  "strace",
  "ltrace",
  "valgrind",
  "fakeroot",
  "run0",
  "gosu",
  "su-exec",
  "setpriv",
  "prlimit",
  "numactl",
  "xvfb-run",
  "bwrap",
  "proot",
  "cpulimit",
  "unbuffer",
  "faketime",
  "torsocks",
  "proxychains",
  "proxychains4",
  "dbus-run-session",
  "systemd-inhibit",
  "caffeinate",
  "sg",
  "capsh",
  // Runners that take the command as one shell string (`hyperfine 'cmd'`,
  // `scl enable devtoolset-9 'cmd'`, `vagrant ssh -c 'cmd'`).
  "hyperfine",
  "scl",
  "vagrant",
  // Terminal multiplexers run a command in a session of their own, now or later.
  "tmux",
  "byobu",
  "screen",
]);
