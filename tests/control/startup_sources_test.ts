/**
 * The files the shells' start-up files load: which lines name one, and how
 * far the reading follows them, on the in-memory filesystem.
 */
import { assertEquals } from "../helpers/assert.ts";
import {
  SOURCE_READ_LIMITS,
  sourcedPaths,
  startupSources,
} from "../../src/control/startup_sources.ts";
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
