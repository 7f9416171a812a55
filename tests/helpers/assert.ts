/**
 * The assertions the tests use, in the names of Deno's standard library
 * (which lives on JSR, unreachable here), built on `node:assert`.
 *
 * @module
 */

import nodeAssert from "node:assert/strict";

/** Fails unless `actual` deep-equals `expected`. */
export function assertEquals<T>(actual: T, expected: T, msg?: string): void {
  nodeAssert.deepStrictEqual(actual, expected, msg);
}

/** Fails when `actual` deep-equals `expected`. */
export function assertNotEquals<T>(actual: T, expected: T, msg?: string): void {
  nodeAssert.notDeepStrictEqual(actual, expected, msg);
}

/** Fails unless `cond` is truthy. */
export function assert(cond: unknown, msg?: string): asserts cond {
  nodeAssert.ok(cond, msg);
}

/** Fails unless `text` contains `part`. */
export function assertStringIncludes(text: string, part: string, msg?: string): void {
  nodeAssert.ok(
    text.includes(part),
    msg ?? `expected ${JSON.stringify(text.slice(0, 2000))} to include ${JSON.stringify(part)}`,
  );
}

/** Fails when `text` contains `part`. */
export function assertNotIncludes(text: string, part: string, msg?: string): void {
  nodeAssert.ok(
    !text.includes(part),
    msg ?? `expected ${JSON.stringify(text.slice(0, 2000))} not to include ${JSON.stringify(part)}`,
  );
}

/** Fails unless `fn` throws. */
export function assertThrows(fn: () => unknown, msg?: string): void {
  nodeAssert.throws(fn, msg);
}
