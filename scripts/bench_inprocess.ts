/**
 * In-process costs for the benchmark: parsing an 8 KiB shell command,
 * parsing one search's evidence, reading a 2 MiB metrics pair, and parsing
 * a project file. Reported in microseconds or milliseconds per operation.
 *
 * @module
 */

import { parseBash } from "../src/shell/bash/mod.ts";
import { isDestructive } from "../src/shell/destructive/mod.ts";
import { callEvidence } from "../src/evidence/search.ts";
import { runReport } from "../src/report/command.ts";
import { parseProjectConfig, STARTER_CONFIG } from "../src/config/project_config.ts";
import { generateMetrics } from "../tests/report/generate.ts";

function perOp(n: number, fn: (i: number) => void): number {
  for (let i = 0; i < Math.min(n, 50); i++) fn(i);
  const start = performance.now();
  for (let i = 0; i < n; i++) fn(i);
  return (performance.now() - start) / n;
}

/** Measures the in-process costs; values are human-readable strings. */
export async function measureInProcess(): Promise<Record<string, string>> {
  const segment = "grep -rn --include='*.ts' widget src | head -n 5 && ";
  const command = segment.repeat(Math.ceil(8192 / segment.length)).slice(0, 8100) + "ls";
  const parseMs = perOp(200, () => parseBash(command));
  const destructiveMs = perOp(200, () => isDestructive("bash", command, []));

  const call = {
    id: "t1",
    tool: "Bash",
    input: { command: "rg -n -g '*.ts' -g '!*.test.ts' --type-not md widget src tests" },
    completed: true,
    sameBatch: false,
    hasMessageId: true,
  };
  const ctx = { base: "/p", processCwd: "/p", shellCwdUnknown: false, shellDirsOff: false };
  // A fresh call object each time: parses are cached per call.
  // deno-lint-ignore no-explicit-any
  const evidenceMs = perOp(2000, (i) => callEvidence({ ...call, id: `t${i}` } as any, ctx));

  const dir = await Deno.makeTempDir({ prefix: "gateguard-bench-report-" });
  await Deno.writeTextFile(`${dir}/metrics.jsonl.1`, generateMetrics(1024 * 1024, 1));
  await Deno.writeTextFile(`${dir}/metrics.jsonl`, generateMetrics(1024 * 1024, 2));
  const reportMs = perOp(
    5,
    () => runReport(["--dir", dir], {}, { nowMs: Date.now(), terminal: false }),
  );
  await Deno.remove(dir, { recursive: true });

  const configMs = perOp(2000, () => parseProjectConfig(STARTER_CONFIG));
  return {
    "parse 8 KiB bash command": `${(parseMs * 1000).toFixed(0)} µs`,
    "destructive check, 8 KiB": `${(destructiveMs * 1000).toFixed(0)} µs`,
    "search evidence, one rg call": `${(evidenceMs * 1000).toFixed(1)} µs`,
    "report on a 2 MiB pair": `${reportMs.toFixed(0)} ms`,
    "parse starter .gateguard.jsonc": `${(configMs * 1000).toFixed(1)} µs`,
  };
}
