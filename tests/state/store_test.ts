/**
 * Tests of the state store: loading, atomic locked saves, expiry, failures,
 * pruning, and 32 real processes saving one session at once.
 *
 * @module
 */

import { tempDirSync } from "../helpers/temp.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import { PROJECT_IDLE_MS, resolveSessionKey, type SessionKey } from "../../src/state/key.ts";
import { emptyDelta, emptyState, type StateDelta } from "../../src/state/schema.ts";
import {
  loadState,
  type LockClock,
  PRUNE_INTERVAL_MS,
  PRUNE_STAMP,
  pruneIfDue,
  pruneStale,
  saveDelta,
  statePath,
} from "../../src/state/store.ts";
import { waitFor } from "../helpers/wait.ts";
import { WORKER_SESSION_ID, workerKey } from "./save_worker.ts";

const HOUR = 60 * 60 * 1000;
const WORKER = new URL("./save_worker.ts", import.meta.url).pathname;

function sessionKey(sessionId: string): Promise<SessionKey> {
  return resolveSessionKey({
    sessionId,
    envSessionIds: [],
    transcriptPath: null,
    projectRoot: "/p",
  });
}

function checking(...keys: string[]): StateDelta {
  const delta = emptyDelta();
  delta.check.push(...keys);
  delta.inc.fact_force_denials = 1;
  return delta;
}

function names(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((entry) => entry.name).sort();
}

/** A lock clock whose time moves only by its own pauses, which it counts. */
function virtualClock(): LockClock & { pauses: number; elapsed: number } {
  const clock = {
    pauses: 0,
    elapsed: 0,
    now: () => clock.elapsed,
    pause: (ms: number) => {
      clock.pauses++;
      clock.elapsed += ms;
    },
  };
  return clock;
}

function setAge(path: string, now: number, ageMs: number): void {
  const when = new Date(now - ageMs);
  Deno.utimeSync(path, when, when);
}

Deno.test("[in-session-counters] a save persists the delta and loads back", async () => {
  const dir = tempDirSync();
  const key = await sessionKey("round-trip");
  const now = Date.now();
  assertEquals(loadState(dir, key, now), emptyState(now));
  const first = saveDelta(dir, key, checking("/p/a.ts"), now);
  assert(first.ok && first.created);
  const second = saveDelta(dir, key, checking("/p/b.ts"), now + 1);
  assert(second.ok && !second.created);
  const loaded = loadState(dir, key, now + 2);
  assertEquals(loaded, second.state);
  assertEquals([...loaded.checked], ["/p/a.ts", "/p/b.ts"]);
  assertEquals(loaded.counters.fact_force_denials, 2);
  assertEquals(names(dir), ["state-round-trip.json"]);
  const raw = JSON.parse(Deno.readTextFileSync(statePath(dir, key)));
  assertEquals([raw.v, raw.checked, raw.last_active], [1, ["/p/a.ts", "/p/b.ts"], now + 1]);
});

Deno.test("[state-file-is-untrusted] the state dir is created private and files are owner-only", async () => {
  const root = tempDirSync();
  const dir = `${root}/nested/state`;
  const key = await sessionKey("modes");
  assert(saveDelta(dir, key, checking("/p/a"), Date.now()).ok);
  assertEquals(Deno.statSync(dir).mode! & 0o777, 0o700);
  assertEquals(Deno.statSync(statePath(dir, key)).mode! & 0o777, 0o600);
});

Deno.test("[state-file-is-untrusted] a corrupt or non-regular state file loads empty and is replaced", async () => {
  const dir = tempDirSync();
  const key = await sessionKey("corrupt");
  const path = statePath(dir, key);
  const now = Date.now();
  Deno.writeTextFileSync(path, '{"checked":["/p/a"],"last_active":');
  assertEquals(loadState(dir, key, now), emptyState(now));
  const saved = saveDelta(dir, key, checking("/p/b"), now);
  assert(saved.ok && !saved.created);
  assertEquals([...loadState(dir, key, now).checked], ["/p/b"]);

  const target = `${dir}/elsewhere.json`;
  Deno.writeTextFileSync(target, JSON.stringify({ checked: ["/p/planted"], last_active: now }));
  Deno.removeSync(path);
  Deno.symlinkSync(target, path);
  assertEquals(loadState(dir, key, now), emptyState(now));
  assert(saveDelta(dir, key, checking("/p/c"), now).ok);
  assert(!Deno.lstatSync(path).isSymlink);
  assertEquals([...loadState(dir, key, now).checked], ["/p/c"]);
  assertEquals(JSON.parse(Deno.readTextFileSync(target)).checked, ["/p/planted"]);
});

Deno.test("[state-file-is-untrusted] a FIFO in place of the state file never blocks a load", async () => {
  const dir = tempDirSync();
  const key = await sessionKey("fifo");
  const made = await new Deno.Command("mkfifo", { args: [statePath(dir, key)] }).output();
  assert(made.success, "mkfifo is needed for this test");
  const now = Date.now();
  assertEquals(loadState(dir, key, now), emptyState(now));
  const saved = saveDelta(dir, key, checking("/p/a"), now);
  assert(saved.ok);
  assertEquals([...loadState(dir, key, now).checked], ["/p/a"]);
});

Deno.test("[idle-window] a session state survives 8 idle hours and no longer", async () => {
  const dir = tempDirSync();
  const key = await sessionKey("long-session");
  const t0 = Date.now() - 9 * HOUR;
  assert(saveDelta(dir, key, checking("/p/a"), t0).ok);
  assertEquals([...loadState(dir, key, t0 + 8 * HOUR).checked], ["/p/a"]);
  assertEquals(loadState(dir, key, t0 + 8 * HOUR + 1), emptyState(t0 + 8 * HOUR + 1));
  // A save after expiry starts from nothing instead of reviving old keys.
  const later = saveDelta(dir, key, checking("/p/b"), t0 + 8 * HOUR + 1);
  assert(later.ok);
  assertEquals([...later.state.checked], ["/p/b"]);
  assertEquals(later.state.counters.fact_force_denials, 1);
});

Deno.test("[routine-bash-gate-once-per-session] a project-keyed state expires after 30 idle minutes", async () => {
  const dir = tempDirSync();
  const key = await resolveSessionKey({
    sessionId: null,
    envSessionIds: [],
    transcriptPath: null,
    projectRoot: "/work/p",
  });
  const t0 = Date.now() - HOUR;
  assert(saveDelta(dir, key, checking("bash-routine"), t0).ok);
  assertEquals([...loadState(dir, key, t0 + PROJECT_IDLE_MS).checked], ["bash-routine"]);
  assertEquals(loadState(dir, key, t0 + PROJECT_IDLE_MS + 1).checked.size, 0);
  const proj = await sessionKey("proj-lookalike");
  assert(saveDelta(dir, proj, checking("/p/a"), t0).ok);
  assertEquals(loadState(dir, proj, t0 + PROJECT_IDLE_MS + 1).checked.size, 0);
});

Deno.test("[graduated-controls] a file in place of the state dir fails naming the directory and why, in plain words", async () => {
  const root = tempDirSync();
  const key = await sessionKey("unwritable");
  const blocker = `${root}/not-a-dir`;
  Deno.writeTextFileSync(blocker, "x");
  const cases = [
    [blocker, "it is a file, not a directory"],
    [`${blocker}/sub`, "a part of its path is a file, not a directory"],
  ];
  for (const [dir, reason] of cases) {
    const result = saveDelta(dir, key, checking("/p/a"), Date.now());
    assertEquals(result, {
      ok: false,
      error: `the state directory ${dir} cannot be used: ${reason}`,
    });
    assertEquals(loadState(dir, key, 5), emptyState(5));
  }
  assertEquals(Deno.readTextFileSync(blocker), "x");
  assertEquals(saveDelta("", key, checking("/p/a"), Date.now()), {
    ok: false,
    error: "the state directory  cannot be used: the directory name is empty",
  });
  Deno.removeSync(root, { recursive: true });
});

Deno.test("[state-file-is-untrusted] a directory or symlink in place of the state file is moved aside and a fresh state saved", async () => {
  for (const kind of ["directory", "symlink"] as const) {
    const dir = tempDirSync();
    const outside = tempDirSync();
    const key = await sessionKey(`non-file-${kind}`);
    const path = statePath(dir, key);
    if (kind === "directory") Deno.mkdirSync(`${path}/inner`, { recursive: true });
    else Deno.symlinkSync(`${outside}/elsewhere.json`, path);
    const result = saveDelta(dir, key, checking("/p/a"), Date.now());
    assert(result.ok, kind);
    assertEquals(result.warnings, [
      `the session state file ${path} was a ${kind}; it was moved aside and a fresh state started`,
    ]);
    assertEquals([...loadState(dir, key, Date.now()).checked], ["/p/a"]);
    const [file, aside] = names(dir);
    assertEquals(file, key.fileName);
    assert(aside.startsWith(`${key.fileName}.tmp-aside-`), aside);
    // The symlink itself moved; what it pointed at was never created or touched.
    assertEquals(names(outside), []);
  }
});

Deno.test("[state-file-is-untrusted] a stale lock left by a dead process is broken", async () => {
  const dir = tempDirSync();
  const key = await sessionKey("stale-lock");
  const lock = `${statePath(dir, key)}.lock`;
  for (const ageMs of [60_000, -HOUR]) {
    Deno.writeTextFileSync(lock, "4242-deadbeef");
    setAge(lock, Date.now(), ageMs);
    const clock = virtualClock();
    const result = saveDelta(dir, key, checking(`/p/${ageMs}`), Date.now(), clock);
    assert(result.ok);
    assertEquals(clock.pauses, 0, "a stale lock must not be waited for");
    assertEquals(names(dir), ["state-stale-lock.json"]);
  }
  assertEquals(loadState(dir, key, Date.now()).counters.fact_force_denials, 2);
});

Deno.test("[state-file-is-untrusted] a lock path that is a directory or a symlink is stale at once", async () => {
  for (const kind of ["directory", "symlink"] as const) {
    const dir = tempDirSync();
    const outside = tempDirSync();
    const key = await sessionKey(`lock-${kind}`);
    const lock = `${statePath(dir, key)}.lock`;
    if (kind === "directory") Deno.mkdirSync(lock);
    else Deno.symlinkSync(`${outside}/target`, lock);
    const clock = virtualClock();
    const result = saveDelta(dir, key, checking("/p/a"), Date.now(), clock);
    assert(result.ok, kind);
    // Taken, not waited out: a save that missed the lock says so.
    assertEquals(result.warnings, [], kind);
    assertEquals(clock.pauses, 0, kind);
    const [file, aside] = names(dir);
    assertEquals(file, key.fileName);
    assert(aside.startsWith(`${key.fileName}.lock.tmp-aside-`), aside);
    assertEquals(names(outside), []);
  }
});

Deno.test("[state-file-is-untrusted] a lock another process keeps touching is broken, not waited for", async () => {
  const dir = tempDirSync();
  const key = await sessionKey("touched-lock");
  const lock = `${statePath(dir, key)}.lock`;
  Deno.writeTextFileSync(lock, "9-kept-fresh");
  // Dated 1970 until the toucher runs: its first touch is the sign it did.
  Deno.utimeSync(lock, 0, 0);
  const toucher = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `const p = ${JSON.stringify(lock)}; ` +
      `for (;;) { try { const t = new Date(); Deno.utimeSync(p, t, t); } catch { /* moved */ } ` +
      `await new Promise((r) => setTimeout(r, 15)); }`,
    ],
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    await waitFor("a touch of the lock", () => (Deno.statSync(lock).mtime?.getTime() ?? 0) > 0);
    const result = saveDelta(dir, key, checking("/p/a"), Date.now());
    assert(result.ok);
    assertEquals(result.warnings, []);
    assertEquals([...loadState(dir, key, Date.now()).checked], ["/p/a"]);
    assert(names(dir).some((n) => n.startsWith(`${key.fileName}.lock.tmp-aside-`)));
  } finally {
    toucher.kill();
    await toucher.status;
  }
});

Deno.test("[denial-cap] a lock held too long is waited for, then saved around without removing it", async () => {
  const dir = tempDirSync();
  const key = await sessionKey("held-lock");
  const lock = `${statePath(dir, key)}.lock`;
  Deno.writeTextFileSync(lock, "7-live");
  const clock = virtualClock();
  const result = saveDelta(dir, key, checking("/p/a"), Date.now(), clock);
  assert(result.ok);
  assertEquals(result.warnings, ["the session lock stayed busy for 2 s; state saved without it"]);
  // Pauses of 2 to 12 ms until 2 s have passed, then one more look.
  assert(clock.elapsed >= 2000 && clock.elapsed < 2012, `waited ${clock.elapsed} ms`);
  assert(clock.pauses >= 2000 / 12 && clock.pauses <= 2000 / 2 + 1, `${clock.pauses} pauses`);
  assertEquals(Deno.readTextFileSync(lock), "7-live");
  assertEquals([...loadState(dir, key, Date.now()).checked], ["/p/a"]);
  assertEquals(names(dir), ["state-held-lock.json", "state-held-lock.json.lock"]);
});

Deno.test("[denial-cap] 32 processes saving one session at once lose no key and no count", async () => {
  const dir = tempDirSync();
  const barrier = tempDirSync();
  const count = 32;
  const children = Array.from({ length: count }, (_, i) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", "--quiet", WORKER, dir, barrier, String(i)],
      stdout: "piped",
      stderr: "piped",
    }).spawn());
  const readyBy = Date.now() + 60_000;
  while (names(barrier).length < count && Date.now() < readyBy) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  Deno.writeTextFileSync(`${barrier}/go`, "");
  const outputs = await Promise.all(children.map((child) => child.output()));
  const dec = new TextDecoder();
  const results = outputs.map((out) => {
    assertEquals(out.code, 0, dec.decode(out.stderr) + dec.decode(out.stdout));
    return JSON.parse(dec.decode(out.stdout));
  });
  // Under a heavy machine load a save may wait its 2 s out; then it says so.
  const waitedOut = results.filter((r) => r.warnings.length > 0).length;
  assertEquals(results.filter((r) => r.created).length, 1);
  const key = await sessionKey(WORKER_SESSION_ID);
  const state = loadState(dir, key, Date.now());
  const expected = Array.from({ length: count }, (_, i) => workerKey(i)).sort();
  // A save that waited its 2 s out wrote without the lock and may have
  // overwritten another's key; only then may one be missing.
  if (waitedOut === 0) {
    assertEquals([...state.checked].sort(), expected);
    assertEquals(state.counters.fact_force_denials, count);
    assertEquals({ ...state.denialsByClass }, { code: count });
  } else {
    assertEquals([...state.checked].filter((k) => !expected.includes(k)), []);
  }
  assertEquals(names(dir), [key.fileName]);
});

Deno.test("[idle-window] pruning removes state idle for twice its window and leftovers", () => {
  const dir = tempDirSync();
  const now = Date.now();
  const files: [string, number, boolean][] = [
    ["state-old-session.json", 16 * HOUR + 60_000, true],
    ["state-recent-session.json", 15 * HOUR, false],
    ["state-h-0123456789abcdef0123456789abcdef.json", 17 * HOUR, true],
    ["state-proj-0123456789abcdef.json", HOUR + 60_000, true],
    ["state-proj-fedcba9876543210.json", 59 * 60_000, false],
    ["state-proj-abc.json", 2 * HOUR, true],
    ["state-x.json.lock", HOUR + 60_000, true],
    ["state-y.json.lock", 60_000, false],
    ["state-x.json.tmp-12-abcdef", HOUR + 60_000, true],
    ["state-x.json.tmp-stale-12-abcdef", HOUR + 60_000, true],
    ["state-y.json.tmp-13-abcdef", 60_000, false],
    ["metrics.jsonl", 100 * HOUR, false],
    ["metrics.jsonl.1", 100 * HOUR, false],
    ["other.json", 100 * HOUR, false],
    ["notes.lock", 100 * HOUR, false],
  ];
  for (const [name, age] of files) {
    Deno.writeTextFileSync(`${dir}/${name}`, "{}");
    setAge(`${dir}/${name}`, now, age);
  }
  Deno.mkdirSync(`${dir}/state-dir.json`);
  setAge(`${dir}/state-dir.json`, now, 100 * HOUR);
  pruneStale(dir, now);
  const kept = files.filter(([, , gone]) => !gone).map(([name]) => name);
  assertEquals(names(dir), [...kept, "state-dir.json"].sort());
});

Deno.test("[idle-window] pruning scans the state directory at most once an interval, by a stamp file", () => {
  const dir = tempDirSync();
  const now = Date.now();
  const stale = (name: string) => {
    Deno.writeTextFileSync(`${dir}/${name}`, "{}");
    setAge(`${dir}/${name}`, now, 100 * HOUR);
  };
  stale("state-a.json");
  assertEquals(pruneIfDue(dir, now), true);
  assertEquals(names(dir), [PRUNE_STAMP]);
  // Within the interval a new session's first save does not scan again.
  stale("state-b.json");
  assertEquals(pruneIfDue(dir, now + PRUNE_INTERVAL_MS - 1), false);
  assertEquals(names(dir), [PRUNE_STAMP, "state-b.json"]);
  // Once the interval has passed it does, and renews the stamp.
  const later = now + PRUNE_INTERVAL_MS + 1;
  assertEquals(pruneIfDue(dir, later), true);
  assertEquals(names(dir), [PRUNE_STAMP]);
  assertEquals(Deno.statSync(`${dir}/${PRUNE_STAMP}`).mtime?.getTime(), later);
  // A stamp dated in the future does not put pruning off.
  setAge(`${dir}/${PRUNE_STAMP}`, now, -10 * HOUR);
  stale("state-c.json");
  assertEquals(pruneIfDue(dir, now), true);
  assertEquals(names(dir), [PRUNE_STAMP]);
});

Deno.test("[idle-window] a new stamp is dated by the caller's clock, so the interval counts from that clock", () => {
  const dir = tempDirSync();
  // A clock five seconds behind the filesystem's: the interval still ends when it says so.
  const now = Date.now() - 5_000;
  assertEquals(pruneIfDue(dir, now), true);
  assertEquals(Deno.statSync(`${dir}/${PRUNE_STAMP}`).mtime?.getTime(), now);
  assertEquals(pruneIfDue(dir, now + PRUNE_INTERVAL_MS - 1), false);
  assertEquals(pruneIfDue(dir, now + PRUNE_INTERVAL_MS + 1), true);
});

Deno.test("[idle-window] a stamp that is a link or a folder is never written through, and pruning still runs", () => {
  const root = tempDirSync();
  const dir = `${root}/state`;
  Deno.mkdirSync(dir);
  Deno.writeTextFileSync(`${root}/precious`, "keep me");
  const old = Date.now() - 1_000_000;
  setAge(`${root}/precious`, old, 0);
  Deno.symlinkSync(`${root}/precious`, `${dir}/${PRUNE_STAMP}`);
  const now = Date.now();
  for (const at of [now, now + 1]) {
    Deno.writeTextFileSync(`${dir}/state-a.json`, "{}");
    setAge(`${dir}/state-a.json`, at, 100 * HOUR);
    assertEquals(pruneIfDue(dir, at), true);
    assertEquals(names(dir), [PRUNE_STAMP]);
  }
  assertEquals(Deno.readTextFileSync(`${root}/precious`), "keep me");
  assertEquals(Deno.statSync(`${root}/precious`).mtime?.getTime(), old);
  assert(Deno.lstatSync(`${dir}/${PRUNE_STAMP}`).isSymlink);
  Deno.removeSync(`${dir}/${PRUNE_STAMP}`);
  Deno.mkdirSync(`${dir}/${PRUNE_STAMP}`);
  Deno.writeTextFileSync(`${dir}/state-a.json`, "{}");
  setAge(`${dir}/state-a.json`, now, 100 * HOUR);
  assertEquals(pruneIfDue(dir, now), true);
  assertEquals(names(dir), [PRUNE_STAMP]);
  assert(Deno.statSync(`${dir}/${PRUNE_STAMP}`).isDirectory);
});

Deno.test("[idle-window] pruning a missing or non-directory path does nothing", () => {
  const root = tempDirSync();
  Deno.writeTextFileSync(`${root}/file`, "x");
  pruneStale(`${root}/missing`, Date.now());
  pruneStale(`${root}/file`, Date.now());
  pruneStale("", Date.now());
  assertEquals(names(root), ["file"]);
});
