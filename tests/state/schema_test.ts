/**
 * Tests of state validation (`parseState`), serialization and `applyDelta`.
 *
 * @module
 */

import { deeplyNestedJson } from "../helpers/hostile.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import {
  applyDelta,
  COUNTER_NAMES,
  type DirGate,
  emptyDelta,
  emptyState,
  parseState,
  serializeState,
  type SessionState,
  STATE_LIMITS,
} from "../../src/state/schema.ts";

const NOW = 1_700_000_000_000;

function stateText(fields: Record<string, unknown>): string {
  return JSON.stringify({ v: 1, last_active: NOW - 1000, ...fields });
}

function gate(at: number, first = "src/a.ts", turn: string | null = "turn-1"): DirGate {
  return { turn, at, first, ordinal: 1 };
}

Deno.test("[state-file-is-untrusted] non-JSON, truncated and non-object files load empty", () => {
  const good = serializeState(applyDelta(emptyState(NOW), { ...emptyDelta(), check: ["/a"] }, NOW));
  const texts = ["", "not json", good.slice(0, good.length - 3), "[]", "null", "42", '"s"', "true"];
  for (const text of texts) assertEquals(parseState(text, NOW), emptyState(NOW), text);
});

Deno.test("[state-file-is-untrusted] deep nesting loads empty without throwing", () => {
  assertEquals(parseState("[".repeat(200_000), NOW), emptyState(NOW));
  const nested = `{"last_active":${NOW},"checked":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
  assertEquals(parseState(nested, NOW).checked.size, 0);
});

Deno.test("[state-file-is-untrusted] a __proto__ key pollutes nothing", () => {
  const state = parseState(`{"__proto__":{"x":1},"last_active":${NOW},"checked":["/a"]}`, NOW);
  assertEquals([...state.checked], ["/a"]);
  assertEquals(({} as Record<string, unknown>).x, undefined);
  assertEquals(parseState('{"__proto__":{"x":1}}', NOW), emptyState(NOW));
});

Deno.test("[state-file-is-untrusted] class maps drop reserved, malformed and long keys", () => {
  const state = parseState(
    stateText({
      denials_by_class: {
        constructor: 5,
        prototype: 2,
        ["__proto__"]: 3,
        code: 2,
        Code: 1,
        ["x".repeat(65)]: 1,
        ["x".repeat(64)]: 4,
        test: -1,
        prose: 1.5,
        config: "3",
        instruction: 0,
      },
      credited_by_class: ["code"],
    }),
    NOW,
  );
  assertEquals(Object.getPrototypeOf(state.denialsByClass), null);
  assertEquals(Object.getPrototypeOf(state.creditedByClass), null);
  assertEquals({ ...state.denialsByClass }, { code: 2, ["x".repeat(64)]: 4 });
  assertEquals({ ...state.creditedByClass }, {});
});

Deno.test("[state-file-is-untrusted] the JSON __proto__ key never reaches a class map", () => {
  const text = `{"last_active":${NOW},"denials_by_class":{"__proto__":7,"code":1}}`;
  const map = parseState(text, NOW).denialsByClass;
  assertEquals(Object.keys(map), ["code"]);
  assertEquals(Object.getPrototypeOf(map), null);
});

Deno.test("[state-file-is-untrusted] a class map keeps at most maxClasses entries", () => {
  const many: Record<string, number> = {};
  for (let i = 0; i < 100; i++) many[`c${i}`] = 1;
  const state = parseState(stateText({ denials_by_class: many }), NOW);
  assertEquals(Object.keys(state.denialsByClass).length, STATE_LIMITS.maxClasses);
});

Deno.test("[in-session-counters] counters clamp to whole non-negative numbers", () => {
  const cases: [unknown, number][] = [
    [-1, 0],
    [1.5, 0],
    ["7", 0],
    [true, 0],
    [null, 0],
    [1e300, STATE_LIMITS.maxCount],
    [2 ** 53 + 2, STATE_LIMITS.maxCount],
    [4, 4],
    [0, 0],
  ];
  for (const [value, expected] of cases) {
    const fields: Record<string, unknown> = {};
    for (const name of COUNTER_NAMES) fields[name] = value;
    const state = parseState(stateText(fields), NOW);
    for (const name of COUNTER_NAMES) assertEquals(state.counters[name], expected, name);
  }
});

Deno.test("[state-file-is-untrusted] 100k checked entries keep the newest 10,000 valid keys", () => {
  const checked: unknown[] = [];
  for (let i = 0; i < 100_000; i++) checked.push(`/p/k-${i}`);
  checked.push(7, null, "", "y".repeat(4097), { k: 1 }, "/p/k-99999");
  const state = parseState(stateText({ checked }), NOW);
  const keys = [...state.checked];
  assertEquals(keys.length, STATE_LIMITS.maxChecked);
  assertEquals(keys[0], "/p/k-90000");
  assertEquals(keys[keys.length - 1], "/p/k-99999");
});

Deno.test("[state-file-is-untrusted] checked keys stay within the character budget", () => {
  const checked: string[] = [];
  for (let i = 0; i < 600; i++) checked.push(`${String(i).padStart(4, "0")}${"z".repeat(4092)}`);
  const keys = [...parseState(stateText({ checked }), NOW).checked];
  // 512 keys of 4096 units fill the budget exactly.
  assertEquals(keys.length, 512);
  assert(keys[0].startsWith("0088"));
  assert(keys[511].startsWith("0599"));
});

Deno.test("[state-file-is-untrusted] dir_gates keep the 50 newest well-formed entries", () => {
  const gates: Record<string, unknown> = {};
  for (let i = 1; i <= 80; i++) gates[`code\u0000/p/d${i}`] = gate(NOW - 100_000 + i);
  const state = parseState(stateText({ dir_gates: gates }), NOW);
  const ats = Object.values(state.dirGates).map((g) => g.at).sort((a, b) => a - b);
  assertEquals(ats.length, 50);
  assertEquals(ats[0], NOW - 100_000 + 31);
  assertEquals(ats[49], NOW - 100_000 + 80);
  assertEquals(Object.getPrototypeOf(state.dirGates), null);
});

Deno.test("[state-file-is-untrusted] malformed dir_gates entries are dropped", () => {
  const at = NOW - 5000;
  const state = parseState(
    stateText({
      dir_gates: {
        "code\u0000/p/ok": gate(at),
        "test\u0000/p/no-turn": gate(at, "t/a_test.ts", null),
        "prose\u0000/p/soon": gate(NOW + 30_000),
        "code\u0000/p/future": gate(NOW + 120_000),
        "code\u0000/p/string": "x",
        "code\u0000/p/array": [gate(at)],
        "code\u0000/p/numturn": { ...gate(at), turn: 5 },
        "code\u0000/p/emptyturn": { ...gate(at), turn: "" },
        "code\u0000/p/negat": gate(-1),
        "code\u0000/p/floatat": gate(at + 0.5),
        "code\u0000/p/nofirst": { turn: "t", at, ordinal: 1 },
        "code\u0000/p/emptyfirst": gate(at, ""),
        "code\u0000/p/ord0": { ...gate(at), ordinal: 0 },
        "code\u0000/p/ordstr": { ...gate(at), ordinal: "1" },
        "code/p/nosep": gate(at),
        "code\u0000": gate(at),
        "\u0000/p/noclass": gate(at),
        "__proto__\u0000/p/x": gate(at),
        "constructor\u0000/p/x": gate(at),
        "CODE\u0000/p/upper": gate(at),
      },
    }),
    NOW,
  );
  assertEquals(Object.keys(state.dirGates).sort(), [
    "code\u0000/p/ok",
    "prose\u0000/p/soon",
    "test\u0000/p/no-turn",
  ]);
  assertEquals(state.dirGates["test\u0000/p/no-turn"], gate(at, "t/a_test.ts", null));
});

Deno.test("[canonical-path-keys] an old-shape file with raw keys loads", () => {
  const text = `{"checked":["/abs/a.py","rel/b.py","./c.py"],"last_active":${NOW - 60_000}}`;
  const state = parseState(text, NOW);
  assertEquals([...state.checked], ["/abs/a.py", "rel/b.py", "./c.py"]);
  assertEquals(state.lastActive, NOW - 60_000);
  assertEquals(state.counters, emptyState(NOW).counters);
  assertEquals({ ...state.dirGates }, {});
});

Deno.test("[state-file-is-untrusted] a missing, malformed or future last_active expires the state", () => {
  const values = [undefined, "1700000000000", -5, 1.5, NOW + STATE_LIMITS.clockSlackMs + 1, null];
  for (const last_active of values) {
    const text = JSON.stringify({ checked: ["/a"], fact_force_denials: 3, last_active });
    assertEquals(parseState(text, NOW), emptyState(NOW), String(last_active));
  }
  const skewed = JSON.stringify({ checked: ["/a"], last_active: NOW + 1000 });
  assertEquals([...parseState(skewed, NOW).checked], ["/a"]);
});

function sampleState(): SessionState {
  const delta = emptyDelta();
  delta.check.push("/p/a.ts", "bash-routine");
  delta.inc.fact_force_denials = 2;
  delta.inc.sibling_allows = 1;
  delta.deniedClass.code = 2;
  delta.creditedClass.test = 1;
  delta.dirGates["code\u0000/p/src"] = { turn: null, at: NOW - 10, first: "src/a.ts", ordinal: 2 };
  return applyDelta(emptyState(NOW - 50), delta, NOW);
}

Deno.test("[in-session-counters] the state serializes to the documented snake_case shape", () => {
  assertEquals(
    serializeState(sampleState()),
    `{"v":1,"checked":["/p/a.ts","bash-routine"],"last_active":${NOW},` +
      `"fact_force_denials":2,"fact_force_credited":0,"sibling_allows":1,"cap_allows":0,` +
      `"trivial_allows":0,"routine_readonly_passes":0,"denials_by_class":{"code":2},` +
      `"credited_by_class":{"test":1},"dir_gates":{"code\\u0000/p/src":` +
      `{"turn":null,"at":${NOW - 10},"first":"src/a.ts","ordinal":2}}}`,
  );
});

Deno.test("[state-file-is-untrusted] a written state parses back unchanged", () => {
  const state = sampleState();
  assertEquals(parseState(serializeState(state), NOW), state);
});

Deno.test("[in-session-counters] applyDelta adds keys, counts and gates without touching its input", () => {
  const before = sampleState();
  const snapshot = serializeState(before);
  const delta = emptyDelta();
  delta.check.push("/p/b.ts", "/p/a.ts");
  delta.inc.fact_force_denials = 1;
  delta.inc.cap_allows = 3;
  delta.deniedClass.code = 1;
  delta.deniedClass.prose = 1;
  delta.creditedClass.test = 2;
  const after = applyDelta(before, delta, NOW + 5);
  assertEquals(serializeState(before), snapshot);
  // A re-checked key moves to the newest end.
  assertEquals([...after.checked], ["bash-routine", "/p/b.ts", "/p/a.ts"]);
  assertEquals(after.counters.fact_force_denials, 3);
  assertEquals(after.counters.cap_allows, 3);
  assertEquals(after.counters.sibling_allows, 1);
  assertEquals({ ...after.denialsByClass }, { code: 3, prose: 1 });
  assertEquals({ ...after.creditedByClass }, { test: 3 });
  assertEquals(after.lastActive, NOW + 5);
});

Deno.test("[state-file-is-untrusted] applyDelta skips invalid parts of a delta", () => {
  const delta = emptyDelta();
  delta.check.push("", "q".repeat(4097), "/ok");
  delta.inc.trivial_allows = -4;
  delta.inc.cap_allows = 0.5;
  delta.inc.fact_force_credited = 1e300;
  delta.deniedClass["__proto__"] = 1;
  delta.deniedClass["constructor"] = 1;
  delta.deniedClass.Code = 1;
  const after = applyDelta(emptyState(NOW), delta, NOW);
  assertEquals([...after.checked], ["/ok"]);
  assertEquals(after.counters.trivial_allows, 0);
  assertEquals(after.counters.cap_allows, 0);
  assertEquals(after.counters.fact_force_credited, STATE_LIMITS.maxCount);
  assertEquals(Object.keys(after.denialsByClass), []);
});

Deno.test("[in-session-counters] counters saturate at the bound", () => {
  const base = parseState(stateText({ fact_force_denials: STATE_LIMITS.maxCount }), NOW);
  const after = applyDelta(base, { ...emptyDelta(), inc: { fact_force_denials: 1 } }, NOW);
  assertEquals(after.counters.fact_force_denials, STATE_LIMITS.maxCount);
});

Deno.test("[destructive-bash-gate-every-destructive-command] uncheck removes a one-shot key and wins over check", () => {
  const base = applyDelta(emptyState(NOW), { ...emptyDelta(), check: ["rm-key", "/p/a"] }, NOW);
  const once = applyDelta(base, { ...emptyDelta(), uncheck: ["rm-key", "absent"] }, NOW);
  assertEquals([...once.checked], ["/p/a"]);
  const both = applyDelta(base, { ...emptyDelta(), check: ["/p/b"], uncheck: ["/p/b"] }, NOW);
  assertEquals([...both.checked], ["rm-key", "/p/a"]);
});

Deno.test("[sibling-collapse] merged dir gates keep the newest at per key and at most 50", () => {
  let state = emptyState(NOW);
  for (let i = 1; i <= 60; i++) {
    const delta = emptyDelta();
    delta.dirGates[`code\u0000/p/d${i}`] = gate(NOW - 1000 + i);
    state = applyDelta(state, delta, NOW);
  }
  assertEquals(Object.keys(state.dirGates).length, 50);
  assert(!(`code\u0000/p/d10` in state.dirGates));
  assert(`code\u0000/p/d11` in state.dirGates);
  const older = emptyDelta();
  older.dirGates["code\u0000/p/d60"] = gate(NOW - 5000, "src/old.ts");
  assertEquals(applyDelta(state, older, NOW).dirGates["code\u0000/p/d60"].first, "src/a.ts");
  const newer = emptyDelta();
  newer.dirGates["code\u0000/p/d60"] = gate(NOW, "src/new.ts");
  assertEquals(applyDelta(state, newer, NOW).dirGates["code\u0000/p/d60"].first, "src/new.ts");
});

Deno.test("[state-file-is-untrusted] a state file nested deeper than its format reads as empty, before any parse", () => {
  const now = Date.now();
  const deep = deeplyNestedJson(16 * 1024 * 1024);
  assertEquals(parseState(deep, now), emptyState(now));
  const inChecked = `{"last_active":${now},"checked":${deeplyNestedJson(1024)}}`;
  assertEquals(parseState(inChecked, now), emptyState(now));
  // Brackets inside strings are text, not nesting.
  const keys = `{"last_active":${now},"checked":["/p/${"[".repeat(100)}.ts"]}`;
  assertEquals([...parseState(keys, now).checked], [`/p/${"[".repeat(100)}.ts`]);
});
