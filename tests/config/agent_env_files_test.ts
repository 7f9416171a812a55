/**
 * The `.env` files an agent loads at start: which files each agent reads,
 * and which of GateGuard's variables the hook then ignores.
 */

import { assertEquals } from "../helpers/assert.ts";
import {
  agentEnvFiles,
  plantedVariables,
  withoutPlanted,
} from "../../src/config/agent_env_files.ts";
import { MemoryFs } from "../session_logs/builder.ts";

const ENV = { HOME: "/home/u", ECC_GATEGUARD: "off", GATEGUARD_METRICS: "1" };

Deno.test("[self-protection] Gemini CLI and Codex CLI read .env files from their folder upwards and from their homes", () => {
  assertEquals(agentEnvFiles("gemini", "/w/p", { HOME: "/home/u" }), [
    "/w/p/.gemini/.env",
    "/w/p/.env",
    "/w/.gemini/.env",
    "/w/.env",
    "/.gemini/.env",
    "/.env",
    "/home/u/.gemini/.env",
    "/home/u/.env",
  ]);
  assertEquals(agentEnvFiles("codex", "/w/p", { HOME: "/home/u", CODEX_HOME: "/c" }), [
    "/w/p/.env",
    "/w/.env",
    "/.env",
    "/c/.env",
    "/home/u/.codex/.env",
  ]);
  assertEquals(agentEnvFiles("claude", "/w/p", { HOME: "/home/u" }), []);
  assertEquals(agentEnvFiles("gemini", "C:\\w\\p", {}), [
    "C:\\w\\p\\.gemini\\.env",
    "C:\\w\\p\\.env",
    "C:\\w\\.gemini\\.env",
    "C:\\w\\.env",
    "C:\\.gemini\\.env",
    "C:\\.env",
  ]);
});

Deno.test("[self-protection] a GateGuard variable a loaded .env file defines is ignored, however it is spelled there", () => {
  for (
    const text of [
      "ECC_GATEGUARD=off\n",
      'export ECC_GATEGUARD="off"\n',
      "  ECC_GATEGUARD : off\n",
      "A=1\nECC_GATEGUARD='off' # quiet\n",
    ]
  ) {
    const fs = new MemoryFs({ "/w/p/.env": text }, ["/w", "/w/p"]);
    const planted = plantedVariables("gemini", "/w/p", ENV, fs);
    assertEquals(planted, [{ name: "ECC_GATEGUARD", file: "/w/p/.env" }], text);
    assertEquals(withoutPlanted(ENV, planted), { HOME: "/home/u", GATEGUARD_METRICS: "1" });
  }
  // A folder above, and Gemini's own home file, count as well.
  const above = new MemoryFs({ "/w/.env": "GATEGUARD_METRICS=1\n" }, ["/w", "/w/p"]);
  assertEquals(plantedVariables("gemini", "/w/p", ENV, above), [
    { name: "GATEGUARD_METRICS", file: "/w/.env" },
  ]);
  const home = new MemoryFs({ "/home/u/.codex/.env": "ECC_GATEGUARD=off" }, ["/home/u/.codex"]);
  assertEquals(plantedVariables("codex", "/w/p", ENV, home).map((p) => p.name), [
    "ECC_GATEGUARD",
  ]);
});

Deno.test("[self-protection] .env files that define no GateGuard variable, a .env folder, and agents that load none change nothing", () => {
  const fs = new MemoryFs(
    { "/w/p/.env": "API_KEY=x\nMY_ECC_GATEGUARD_NOTE=1\n", "/home/u/.env": "" },
    ["/w", "/w/p", "/w/p/.gemini/.env"],
  );
  assertEquals(plantedVariables("gemini", "/w/p", ENV, fs), []);
  const planted = new MemoryFs({ "/w/p/.env": "ECC_GATEGUARD=off\n" }, ["/w", "/w/p"]);
  assertEquals(plantedVariables("claude", "/w/p", ENV, planted), []);
  // Without a GateGuard variable set, no file is read.
  const counted = new MemoryFs({ "/w/p/.env": "ECC_GATEGUARD=off\n" }, ["/w", "/w/p"]);
  assertEquals(plantedVariables("gemini", "/w/p", { HOME: "/home/u" }, counted), []);
  assertEquals(counted.bytesRead, 0);
});
