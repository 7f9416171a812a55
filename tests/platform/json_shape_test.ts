import { assertEquals } from "../helpers/assert.ts";
import { jsonShapeWithin } from "../../src/platform/json_shape.ts";

const LOOSE = { maxDepth: Infinity, maxContainers: Infinity };

Deno.test("[fail-to-deny] JSON shape: depth and container counts stop at their bounds", () => {
  assertEquals(jsonShapeWithin('{"a":[1,{"b":[]}]}', { ...LOOSE, maxDepth: 4 }), true);
  assertEquals(jsonShapeWithin('{"a":[1,{"b":[]}]}', { ...LOOSE, maxDepth: 3 }), false);
  assertEquals(jsonShapeWithin("[[],[],[]]", { ...LOOSE, maxContainers: 4 }), true);
  assertEquals(jsonShapeWithin("[[],[],[]]", { ...LOOSE, maxContainers: 3 }), false);
});

Deno.test("[fail-to-deny] JSON shape: brackets inside strings, escaped quotes included, are text", () => {
  const text = JSON.stringify({ content: '[[[{{{ "quoted [" \\ ]]]' });
  assertEquals(jsonShapeWithin(text, { maxDepth: 1, maxContainers: 1 }), true);
});
