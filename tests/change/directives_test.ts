/**
 * Directive comments: the comments the lexer keeps as code.
 */

import { assertEquals } from "../helpers/assert.ts";
import { isDirectiveComment } from "../../src/change/directives.ts";
import type { Language } from "../../src/change/language.ts";

const DIRECTIVES: [Language, string][] = [
  ["sh", "#!/bin/sh"],
  ["py", "#!/usr/bin/env python3"],
  ["py", "# -*- coding: utf-8 -*-"],
  ["py", "# vim: set fileencoding=latin-1 :"],
  ["py", "# type: ignore[attr-defined]"],
  ["py", "# noqa: E501"],
  ["py", "# NOQA"],
  ["py", "# nosec B101"],
  ["py", "# pragma: no cover"],
  ["py", "# fmt: off"],
  ["py", "# pylint: disable=invalid-name"],
  ["ts", "// @ts-ignore"],
  ["ts", "// @ts-expect-error reason"],
  ["ts", '/// <reference types="node" />'],
  ["js", "/* eslint-disable no-console */"],
  ["js", "// eslint-disable-next-line"],
  ["js", "/* global window */"],
  ["js", "/* istanbul ignore next */"],
  ["js", "/*#__PURE__*/"],
  ["js", '/* webpackChunkName: "a" */'],
  ["js", "//# sourceMappingURL=a.js.map"],
  ["js", "/** @type {string} */"],
  ["ts", "// prettier-ignore"],
  ["ts", "// deno-lint-ignore no-explicit-any"],
  ["go", "//go:build linux"],
  ["go", "// +build linux"],
  ["go", "//go:embed static/*"],
  ["go", "//go:generate stringer -type=T"],
  ["go", "//export Add"],
  ["go", "//nolint:errcheck"],
  ["rs", "/// Doc comment."],
  ["rs", "//! Crate doc."],
  ["rs", "/** Doc. */"],
  ["rs", "/*! Inner doc. */"],
  ["c", "// NOLINT"],
  ["c", "// NOLINTNEXTLINE(bugprone-*)"],
  ["java", "// NOSONAR"],
  ["c", "/* fallthrough */"],
  ["c", "// FALLTHRU"],
  ["c", "/* falls through */"],
  ["cpp", "// clang-format off"],
  ["java", "// @formatter:off"],
  ["java", "//noinspection unchecked"],
  ["sh", "# shellcheck disable=SC2086"],
  ["sh", "#compdef git"],
  ["ps1", "#Requires -Version 7"],
  ["ps1", "<# .EXTERNALHELP a-help.xml #>"],
];

const PLAIN: [Language, string][] = [
  ["py", "# Compute the total."],
  ["js", "// TODO: handle errors"],
  ["ts", "/** Returns the sum of a and b. */"],
  ["go", "// Run starts the server."],
  ["rs", "//// not a doc comment"],
  ["rs", "/**/"],
  ["rs", "// plain comment"],
  ["c", "/* the falling rate */"],
  ["sh", "# install the package"],
  ["ps1", "# Requires nothing special"],
  ["ps1", "<# .SYNOPSIS Gets a thing. #>"],
];

for (const [language, comment] of DIRECTIVES) {
  Deno.test(`[directive-comments] ${language}: ${comment} is a directive`, () => {
    assertEquals(isDirectiveComment(language, comment), true);
  });
}

for (const [language, comment] of PLAIN) {
  Deno.test(`[directive-comments] ${language}: ${comment} is a plain comment`, () => {
    assertEquals(isDirectiveComment(language, comment), false);
  });
}

Deno.test("[directive-comments] rust doc syntax is a directive only in rust", () => {
  assertEquals(isDirectiveComment("c", "/// triple slash"), false);
  assertEquals(isDirectiveComment("rs", "/// triple slash"), true);
});
