/**
 * Reading one field of a tool's input, strictly.
 *
 * A gated tool's input is read field by field; a field that is required and
 * missing, or present with the wrong type, is a problem the reader names
 * (in the words the denial uses) rather than a value it guesses. The call
 * is then a `MalformedCall` and denied on every try: an input GateGuard
 * cannot read is never passed, since the tool itself may read it another
 * way. Optional fields may be left out or sent as `null`.
 *
 * @module
 */

import type { MalformedCall } from "./call.ts";

/** A field's value, or what is wrong with it. */
export type Field<T> = { ok: true; value: T } | { ok: false; problem: string };

function ok<T>(value: T): Field<T> {
  return { ok: true, value };
}

function bad<T>(problem: string): Field<T> {
  return { ok: false, problem };
}

function absent(value: unknown): boolean {
  return value === undefined || value === null;
}

/** A required text field (it may be empty). */
export function textField(input: Record<string, unknown>, name: string): Field<string> {
  const value = input[name];
  if (value === undefined) return bad(`\`${name}\` is missing`);
  return typeof value === "string" ? ok(value) : bad(`\`${name}\` is not text`);
}

/** A required path: text that is not empty. */
export function pathField(input: Record<string, unknown>, name: string): Field<string> {
  const text = textField(input, name);
  if (!text.ok) return text;
  return text.value === "" ? bad(`\`${name}\` is empty`) : text;
}

/** An optional path: null when left out, else as `pathField`. */
export function optionalPathField(
  input: Record<string, unknown>,
  name: string,
): Field<string | null> {
  return absent(input[name]) ? ok(null) : pathField(input, name);
}

/** An optional text field: null when left out. */
export function optionalTextField(
  input: Record<string, unknown>,
  name: string,
): Field<string | null> {
  return absent(input[name]) ? ok(null) : textField(input, name);
}

/** An optional true/false field: false when left out. */
export function optionalFlag(input: Record<string, unknown>, name: string): Field<boolean> {
  const value = input[name];
  if (absent(value)) return ok(false);
  return typeof value === "boolean" ? ok(value) : bad(`\`${name}\` is not true or false`);
}

/** The malformed call of tool `tool` (named as its agent names it) for `problem`. */
export function malformed(tool: string, problem: string): MalformedCall {
  return { kind: "malformed", tool, problem };
}
