/**
 * A PreToolUse hook for the end-to-end tests that copies the transcript as
 * it stands when the hook is called, so a test can see exactly what a hook
 * running beside GateGuard could read at that moment.
 *
 * Usage (as a hook command): `deno run --allow-read --allow-write=<dir> probe_hook.ts <dir>`.
 * It writes `<dir>/<tool_use_id>.jsonl` and prints nothing, so it never
 * changes the client's decision.
 *
 * @module
 */

/** Copies the transcript named by the hook payload on stdin into `outDir`. */
export async function snapshotTranscript(payloadText: string, outDir: string): Promise<void> {
  const payload = JSON.parse(payloadText);
  const id = String(payload.tool_use_id ?? "unknown").replace(/[^A-Za-z0-9_-]/g, "_");
  const bytes = await Deno.readFile(String(payload.transcript_path));
  await Deno.writeFile(`${outDir}/${id}.jsonl`, bytes);
}

if (import.meta.main) {
  const outDir = Deno.args[0];
  const text = await new Response(Deno.stdin.readable).text();
  await snapshotTranscript(text, outDir).catch((err) => {
    console.error(`probe: ${err instanceof Error ? err.message : String(err)}`);
  });
}
