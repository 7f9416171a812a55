/**
 * The files the shells' start-up files load, and those an approved
 * `.envrc` loads: which lines name one, and how far the reading follows
 * them, on the in-memory filesystem.
 */
import { assertEquals } from "../helpers/assert.ts";
import {
  envrcLoads,
  envrcSources,
  SOURCE_READ_LIMITS,
  sourcedPaths,
  startupSources,
} from "../../src/control/startup_sources.ts";
import { controlSurfaceOf, type SurfaceContext } from "../../src/control/surface.ts";
import { MemoryFs } from "../hook/context.ts";

const HOME = "/home/u";

Deno.test("[self-protection] start-up lines that load a file name it; computed and commented ones do not", () => {
  const text = [
    '. "$HOME/.cargo/env"',
    "[ -f ~/.fzf.bash ] && source ~/.fzf.bash",
    "if true; then . ${HOME}/.aliases; fi",
    "source .local/env.sh",
    "# . ~/.commented",
    '. "$NVM_DIR/nvm.sh"',
    "source ~/.d/*.sh",
    "echo . not-a-source",
  ].join("\n");
  assertEquals(sourcedPaths(text, HOME), [
    `${HOME}/.cargo/env`,
    `${HOME}/.fzf.bash`,
    `${HOME}/.aliases`,
    `${HOME}/.local/env.sh`,
  ]);
});

Deno.test("[self-protection] the files loaded are followed one level further, within the read limits", () => {
  const fs = new MemoryFs({
    [`${HOME}/.profile`]: ". ~/.one\n",
    [`${HOME}/.one`]: ". ~/.two\n",
    [`${HOME}/.two`]: ". ~/.three\n",
  }, [HOME]);
  assertEquals(startupSources([`${HOME}/.profile`, `${HOME}/.bashrc`], HOME, fs), [
    `${HOME}/.one`,
    `${HOME}/.two`,
  ]);
  const many = Array.from({ length: SOURCE_READ_LIMITS.files + 5 }, (_, i) => `${HOME}/.s${i}`);
  const wide = new MemoryFs(
    Object.fromEntries(many.map((f, i) => [f, `. ~/.t${i}\n`])),
    [HOME],
  );
  assertEquals(startupSources(many, HOME, wide).length, SOURCE_READ_LIMITS.files);
});

const ROOT = "/work/proj";

Deno.test("[self-protection] an .envrc's loading commands name the files it loads, relative to its folder", () => {
  const text = [
    "# source_env ignored.sh",
    "source_env_if_exists .envrc.local",
    "dotenv",
    "dotenv_if_exists config/.env.private",
    'source_env "../common"',
    ". ./scripts/env.sh && export X=1",
    "source_up",
    "source_env $HOME/secret",
    "watch_file flake.nix",
  ].join("\n");
  assertEquals(envrcLoads(text, `${ROOT}/.envrc`), [
    `${ROOT}/.envrc.local`,
    `${ROOT}/.envrc.local/.envrc`,
    `${ROOT}/.env`,
    `${ROOT}/config/.env.private`,
    "/work/common",
    "/work/common/.envrc",
    `${ROOT}/scripts/env.sh`,
    "/work/.envrc",
    "/.envrc",
  ]);
});

Deno.test("[self-protection] the files loaded are read one level further, within bounds", () => {
  const fs = new MemoryFs({
    [`${ROOT}/.envrc`]: "source_env_if_exists .envrc.local\n",
    [`${ROOT}/.envrc.local`]: "source ./more.sh\n",
    [`${ROOT}/more.sh`]: "source ./deeper.sh\n",
  }, ["/work", ROOT]);
  assertEquals(envrcSources([`${ROOT}/.envrc`], fs), [
    `${ROOT}/.envrc.local`,
    `${ROOT}/.envrc.local/.envrc`,
    `${ROOT}/more.sh`,
  ]);
});

function ctx(fs: MemoryFs): SurfaceContext {
  return {
    env: { HOME },
    projectRoot: ROOT,
    processCwd: ROOT,
    program: { binary: "/usr/local/bin/gateguard", runtime: null, checkout: null },
    fs,
  };
}

Deno.test("[self-protection] a file an approved .envrc loads is start-up code while direnv lives here", () => {
  const files = {
    [`${ROOT}/.envrc`]: "source_env_if_exists .envrc.local\n",
    [`${ROOT}/.envrc.local`]: "export A=1\n",
    [`${ROOT}/src/a.ts`]: "x\n",
  };
  const dirs = ["/work", ROOT, `${ROOT}/src`, "/home", HOME];
  const withDirenv = ctx(new MemoryFs(files, [...dirs, `${HOME}/.local/share/direnv`]));
  const hit = controlSurfaceOf(`${ROOT}/.envrc.local`, withDirenv);
  assertEquals(hit !== null && "row" in hit ? hit.row.id : hit, "direnv-loaded");
  assertEquals(controlSurfaceOf(`${ROOT}/src/a.ts`, withDirenv), null);
  // No direnv on the machine: the same file is the project's own.
  assertEquals(controlSurfaceOf(`${ROOT}/.envrc.local`, ctx(new MemoryFs(files, dirs))), null);
});
