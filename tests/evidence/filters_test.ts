import { assert, assertEquals } from "../helpers/assert.ts";
import { CALL_WORK_UNITS, WorkBudget } from "../../src/platform/budget.ts";
import { GLOB_PARSE_UNITS } from "../../src/glob/glob.ts";
import {
  addGlob,
  addType,
  admits,
  excludes,
  type FilterTarget,
  isLookup,
  MAX_FILTERS,
  namesOnlyTarget,
  newFilters,
  type SearchFilters,
  splitTopLevel,
} from "../../src/evidence/filters.ts";

const widget: FilterTarget = {
  segments: ["work", "proj", "src", "ui", "widget.py"],
  basename: "widget.py",
  stem: "widget",
  windows: false,
};

function filters(pathGlobs: boolean, includes: string[], exclusions: string[] = []): SearchFilters {
  const f = newFilters(pathGlobs);
  for (const g of includes) addGlob(f, g, false);
  for (const g of exclusions) addGlob(f, g, true);
  return f;
}

Deno.test("[search-filters] an exclusion covering the file name, a directory above it, or naming the stem blocks credit", () => {
  assertEquals(excludes(filters(false, [], ["widget.py"]), widget), true);
  assertEquals(excludes(filters(false, [], ["*.py"]), widget), true);
  assertEquals(excludes(filters(false, [], ["ui"]), widget), true);
  assertEquals(excludes(filters(false, [], ["src/ui/"]), widget), true);
  assertEquals(excludes(filters(false, [], ["./src/**"]), widget), true);
  assertEquals(excludes(filters(false, [], ["/work/proj/src"]), widget), true);
  assertEquals(excludes(filters(false, [], ["*widget*.bak"]), widget), true);
  assertEquals(excludes(filters(false, [], ["WIDGET.PY"]), widget), true);
});

Deno.test("[search-filters] exclusions that miss the target leave it alone", () => {
  assertEquals(
    excludes(filters(false, [], ["*.md", "node_modules", "dist/**", "src/api"]), widget),
    false,
  );
  assertEquals(excludes(filters(false, [], []), widget), false);
});

Deno.test("[search-filters] malformed, oversized, too many or unreadable exclusions cover the target", () => {
  assertEquals(excludes(filters(false, [], ["[abc"]), widget), true);
  assertEquals(excludes(filters(false, [], ["a".repeat(300)]), widget), true);
  assertEquals(excludes(filters(false, [], [""]), widget), true);
  const many = Array.from({ length: MAX_FILTERS + 1 }, (_, i) => `*.x${i}`);
  assertEquals(excludes(filters(false, [], many), widget), true);
  assertEquals(excludes(filters(false, [], many.slice(0, MAX_FILTERS)), widget), false);
  const unreadable = newFilters(false);
  unreadable.unreadable = true;
  assertEquals(excludes(unreadable, widget), true);
});

Deno.test("[include-filters] a basename glob is matched against the file name", () => {
  assertEquals(admits(filters(false, ["*.py"]), widget, []), true);
  assertEquals(admits(filters(false, ["*.js", "*.py"]), widget, []), true);
  assertEquals(admits(filters(false, ["*.js"]), widget, []), false);
  assertEquals(admits(filters(false, ["*.PY"]), widget, []), false);
  assertEquals(admits(filters(false, []), widget, []), true);
});

Deno.test("[include-filters] a glob with a directory part matches below the root for rg and Grep only", () => {
  const rel = [["src", "ui", "widget.py"]];
  assertEquals(admits(filters(true, ["src/**/*.py"]), widget, rel), true);
  assertEquals(admits(filters(true, ["**/ui/*.py"]), widget, rel), true);
  assertEquals(admits(filters(true, ["/src/**"]), widget, rel), true);
  assertEquals(admits(filters(true, ["lib/**/*.py"]), widget, rel), false);
  assertEquals(admits(filters(false, ["src/**/*.py"]), widget, rel), false);
});

Deno.test("[include-filters] malformed, oversized or too many includes admit nothing", () => {
  assertEquals(admits(filters(false, ["[*.py"]), widget, []), false);
  assertEquals(admits(filters(false, ["*".repeat(300) + ".py"]), widget, []), false);
  const many = Array.from({ length: MAX_FILTERS }, (_, i) => `*.x${i}`);
  assertEquals(admits(filters(false, [...many, "*.py"]), widget, []), false);
});

Deno.test("[search-scope] includes that only name the target's own file make a lookup", () => {
  assertEquals(isLookup(filters(false, ["widget.py"]), widget), true);
  assertEquals(isLookup(filters(false, ["**/widget.py"]), widget), true);
  assertEquals(isLookup(filters(false, ["./src/Widget.py"]), widget), true);
  assertEquals(isLookup(filters(false, ["widget.*"]), widget), false);
  assertEquals(isLookup(filters(false, ["widget.py", "*.md"]), widget), false);
  assertEquals(isLookup(filters(false, []), widget), false);
  // A lookup include cannot admit the target on behalf of the others.
  assertEquals(admits(filters(false, ["widget.py", "*.md"]), widget, []), false);
});

Deno.test("[search-scope] a glob that can only spell the target's name is a lookup in disguise", () => {
  for (
    const glob of ["{widget.py}", "**/{widget.py}", "widget.[p]y", "[w]idget.p[y]", "widget.[pP]y"]
  ) {
    assertEquals(isLookup(filters(false, [glob]), widget), true, glob);
    assertEquals(namesOnlyTarget(glob, "widget.py"), true, glob);
  }
  assertEquals(namesOnlyTarget("{src,lib}/widget.py", "widget.py"), true);
  assertEquals(namesOnlyTarget("{widget.py,widget.py}", "widget.py"), true);
  // Benign look-alikes: each can find another file.
  for (
    const glob of [
      "{widget,gadget}.py",
      "widget.[pq]y",
      "widget.[!x]y",
      "widget.[a-z]y",
      "widget.p?",
      "widget.py*",
      "{widget.py,*.md}",
      "widget.py/**",
    ]
  ) {
    assertEquals(isLookup(filters(false, [glob]), widget), false, glob);
  }
});

Deno.test("[type-filters] known types add their globs; unknown types make the filters unreadable", () => {
  const py = newFilters(true);
  addType(py, "rg", "py", false);
  assertEquals(admits(py, widget, []), true);
  assertEquals(isLookup(py, widget), false);
  const js = newFilters(true);
  addType(js, "rg", "js", false);
  assertEquals(admits(js, widget, []), false);
  const notPy = newFilters(true);
  addType(notPy, "rg", "py", true);
  assertEquals(excludes(notPy, widget), true);
  const unknown = newFilters(true);
  addType(unknown, "rg", "pythonish", false);
  assertEquals(unknown.unreadable, true);
  const proto = newFilters(true);
  addType(proto, "rg", "__proto__", false);
  assertEquals(proto.unreadable, true);
  const ug = newFilters(false);
  addType(ug, "ugrep", "python", false);
  assertEquals(admits(ug, widget, []), true);
});

Deno.test("[search-filters] globs split on top-level commas only", () => {
  assertEquals(splitTopLevel("*.{ts,js}, !dist/** ,,*.md", ","), ["*.{ts,js}", "!dist/**", "*.md"]);
  assertEquals(splitTopLevel("a|b", "|"), ["a", "b"]);
});

Deno.test("[glob-matching-without-regexp] hostile exclusion and include globs cost counted work, within the call budget", () => {
  const budget = new WorkBudget();
  const deep: FilterTarget = {
    segments: [...Array.from({ length: 300 }, () => "a"), "widget.py"],
    basename: "widget.py",
    stem: "widget",
    windows: false,
    budget,
  };
  const hostile = "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b";
  const many = Array.from({ length: MAX_FILTERS }, () => `**/${hostile}/**`);
  assertEquals(excludes(filters(false, [], many), deep), false);
  assertEquals(admits(filters(true, many), deep, [deep.segments]), false);
  // Counted, not timed: a few units per filter and path character, and the
  // parse of each filter (a backtracking matcher would need billions), well
  // inside one call's allowance.
  const pathChars = deep.segments.join("/").length;
  assertEquals(budget.exhausted(), null);
  const bound = 8 * 2 * MAX_FILTERS * pathChars + 2 * MAX_FILTERS * GLOB_PARSE_UNITS;
  assert(budget.spent <= bound, `${budget.spent} units`);
  assert(budget.spent < CALL_WORK_UNITS / 10, `${budget.spent} units`);
});
