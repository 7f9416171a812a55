/**
 * A stand-in hook for the harness tests: it saves each payload it receives
 * as `<dir>/<n>.json` (n counting from 0) and prints a fixed answer, so a
 * test can check both what the client sent and how it took the answer,
 * without GateGuard in the loop.
 *
 * Usage (as a hook command): `deno run --allow-read=<dir> --allow-write=<dir> probe_hook.ts <dir> [answer]`.
 *
 * @module
 */

/** Saves `payload` under the next free number in `dir`; returns the path. */
export async function savePayload(dir: string, payload: string): Promise<string> {
  for (let n = 0;; n++) {
    const path = `${dir}/${n}.json`;
    try {
      await Deno.writeTextFile(path, payload, { createNew: true });
      return path;
    } catch (err) {
      if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
    }
  }
}

if (import.meta.main) {
  const [dir, answer] = Deno.args;
  const text = await new Response(Deno.stdin.readable).text();
  await savePayload(dir, text);
  if (answer) console.log(answer);
}
