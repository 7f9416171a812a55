/**
 * Which source modules one hook process reads and which it evaluates,
 * counted from Deno's own debug log of a real run (`--log-level=debug`):
 * the file fetcher names every module `deno run` reads while it builds the
 * module graph, and the module loader names every module it hands to V8.
 * Used by the bench (modules per call class) and by the module-budget test.
 *
 * @module
 */

/** The modules under one source folder that a run read and evaluated. */
export interface ModuleCensus {
  /** Modules whose file `deno run` read (the graph it built, lazy branches included). */
  read: string[];
  /** Modules V8 was given to run. */
  evaluated: string[];
  /** What the run wrote to stdout, to check the call took the intended path. */
  stdout: string;
}

const FETCHED = /FileFetcher::fetch_no_follow - specifier: (file:\/\/\S+)/;
const EVALUATED = /module_loader.*ES module: (file:\/\/[^,\s]+)/;

/**
 * Runs `argv` (a `deno run …` command line whose flag list starts right
 * after `run`) with the debug log on, feeding `stdin`, and lists the modules
 * under `srcHref` it read and evaluated, as paths relative to `srcHref`.
 */
export async function moduleCensus(
  argv: string[],
  stdin: string,
  env: Record<string, string>,
  srcHref: string,
): Promise<ModuleCensus> {
  const at = argv.indexOf("run");
  const args = [
    ...argv.slice(1, at + 1),
    "--log-level=debug",
    ...argv.slice(at + 1).filter((a) => a !== "--quiet"),
  ];
  const child = new Deno.Command(argv[0], {
    args,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env,
    clearEnv: true,
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(stdin));
  await w.close();
  const out = await child.output();
  const read = new Set<string>();
  const evaluated = new Set<string>();
  for (const line of new TextDecoder().decode(out.stderr).split("\n")) {
    const fetched = FETCHED.exec(line)?.[1];
    if (fetched?.startsWith(srcHref)) read.add(fetched.slice(srcHref.length));
    const ran = EVALUATED.exec(line)?.[1];
    if (ran?.startsWith(srcHref)) evaluated.add(ran.slice(srcHref.length));
  }
  return {
    read: [...read].sort(),
    evaluated: [...evaluated].sort(),
    stdout: new TextDecoder().decode(out.stdout).trim(),
  };
}
