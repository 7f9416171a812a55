/**
 * Tests of state-key resolution, file naming and idle windows.
 *
 * @module
 */

import { assert, assertEquals } from "../helpers/assert.ts";
import {
  idleMsForFileName,
  PROJECT_IDLE_MS,
  resolveSessionKey,
  SESSION_IDLE_MS,
  type SessionKey,
  type SessionKeyInput,
} from "../../src/state/key.ts";

const HOUR = 60 * 60 * 1000;
const SAFE_FILE_NAME = /^state-[a-z0-9-]+\.json$/;

function input(fields: Partial<SessionKeyInput>): SessionKeyInput {
  return {
    sessionId: null,
    envSessionIds: [],
    transcriptPath: null,
    projectRoot: "/work/p",
    ...fields,
  };
}

function byId(sessionId: string): Promise<SessionKey> {
  return resolveSessionKey(input({ sessionId }));
}

async function hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

Deno.test("[idle-window] a session id keys an 8-hour state named after it", async () => {
  const id = "0b5c7e8e-2f0a-4c1e-9d55-3a7c6e1f2b90";
  assertEquals(await byId(id), {
    key: id,
    kind: "session",
    fileName: `state-${id}.json`,
    idleMs: 8 * HOUR,
  });
  assertEquals(SESSION_IDLE_MS, 8 * HOUR);
});

Deno.test("[idle-window] the payload id wins, then the env ids in order, then the transcript", async () => {
  const env = [undefined, "  ", " env-b ", "env-c"];
  assertEquals(
    (await resolveSessionKey(input({ sessionId: " pay ", envSessionIds: env }))).key,
    "pay",
  );
  const fromEnv = await resolveSessionKey(input({ sessionId: "   ", envSessionIds: env }));
  assertEquals([fromEnv.key, fromEnv.kind], ["env-b", "session"]);
  const transcript = await resolveSessionKey(
    input({ envSessionIds: [undefined, ""], transcriptPath: "/home/u/.claude/projects/x/s.jsonl" }),
  );
  assertEquals(transcript.kind, "transcript");
  assertEquals(transcript.key, "/home/u/.claude/projects/x/s.jsonl");
  assertEquals(transcript.idleMs, 8 * HOUR);
});

Deno.test("[idle-window] transcript keys are always hashed, apart from equal session ids", async () => {
  const asTranscript = await resolveSessionKey(input({ transcriptPath: "abc" }));
  const asSession = await byId("abc");
  assert(/^state-h-[0-9a-f]{32}\.json$/.test(asTranscript.fileName), asTranscript.fileName);
  assertEquals(asSession.fileName, "state-abc.json");
  const slashy = await resolveSessionKey(input({ transcriptPath: "x/y" }));
  assert(slashy.fileName !== (await byId("x/y")).fileName);
});

Deno.test("[idle-window] the project fallback is a 30-minute proj- fingerprint", async () => {
  const key = await resolveSessionKey(input({ transcriptPath: " ", projectRoot: "/work/p" }));
  const fingerprint = (await hex("/work/p")).slice(0, 16);
  assertEquals(key, {
    key: `proj-${fingerprint}`,
    kind: "project",
    fileName: `state-proj-${fingerprint}.json`,
    idleMs: 30 * 60 * 1000,
  });
  assertEquals(PROJECT_IDLE_MS, 30 * 60 * 1000);
  const other = await resolveSessionKey(input({ projectRoot: "/work/q" }));
  assert(other.fileName !== key.fileName);
});

Deno.test("[idle-window] a session id starting proj- gets the short window and a proj- name", async () => {
  const plain = await byId("proj-abc");
  assertEquals([plain.fileName, plain.idleMs], ["state-proj-abc.json", PROJECT_IDLE_MS]);
  const hashed = await byId("proj-../X");
  assert(/^state-proj-h-[0-9a-f]{32}\.json$/.test(hashed.fileName), hashed.fileName);
  assertEquals(hashed.idleMs, PROJECT_IDLE_MS);
  assertEquals(idleMsForFileName(hashed.fileName), PROJECT_IDLE_MS);
  assertEquals((await byId("PROJ-abc")).idleMs, SESSION_IDLE_MS);
});

Deno.test("[state-file-is-untrusted] hostile session ids map to safe, distinct file names", async () => {
  const ids = [
    "../../x",
    "..",
    ".",
    "a/b",
    "a\\b",
    "a\u0000b",
    "a\nb",
    "x".repeat(10 * 1024),
    "x".repeat(64),
    "x".repeat(65),
    "ABC",
    "abc",
    "Abc",
    "h-abc",
    "h-0123456789abcdef0123456789abcdef",
    "proj-abc",
    "proj-h-abc",
    "proj-../x",
    "-abc",
    "a b",
    "\ud800",
    "\udc00",
    "\u00e9t\u00e9",
    "state-x.json",
  ];
  const names = new Set<string>();
  for (const id of ids) {
    const key = await byId(id);
    assertEquals(key.key, id);
    assert(SAFE_FILE_NAME.test(key.fileName), `${JSON.stringify(id)} -> ${key.fileName}`);
    assert(key.fileName.length <= 100, key.fileName);
    names.add(key.fileName);
  }
  assertEquals(names.size, ids.length);
});

Deno.test("[state-file-is-untrusted] plain names are kept only for short lowercase ids", async () => {
  assertEquals((await byId("x".repeat(64))).fileName, `state-${"x".repeat(64)}.json`);
  assert((await byId("x".repeat(65))).fileName.startsWith("state-h-"));
  assert((await byId("ABC")).fileName.startsWith("state-h-"));
  assert((await byId("h-abc")).fileName.startsWith("state-h-"));
  assert((await byId("h-abc")).fileName !== "state-h-abc.json");
  assert((await byId("proj-h-abc")).fileName.startsWith("state-proj-h-"));
});

Deno.test("[idle-window] pruning windows are judged by file name", () => {
  assertEquals(idleMsForFileName("state-proj-0123456789abcdef.json"), PROJECT_IDLE_MS);
  assertEquals(idleMsForFileName("state-abc.json"), SESSION_IDLE_MS);
  assertEquals(idleMsForFileName("state-h-0123.json"), SESSION_IDLE_MS);
  assertEquals(idleMsForFileName("state-abc.json.lock"), null);
  assertEquals(idleMsForFileName("state-abc.json.tmp-1-ab"), null);
  assertEquals(idleMsForFileName("metrics.jsonl"), null);
  assertEquals(idleMsForFileName("other.json"), null);
});
