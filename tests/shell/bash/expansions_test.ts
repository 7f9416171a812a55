import { assert, assertEquals } from "../../helpers/assert.ts";
import { parseBash } from "../../../src/shell/bash/parser.ts";
import { Expander, ExpansionTooLarge, lineValues } from "../../../src/shell/bash/expansions.ts";

/** The readings of the last command of `line`, with the values the line gives. */
function readings(line: string, stdin: string[] | null = null): string[][] {
  const parsed = parseBash(line);
  const segments = parsed.segments;
  const expander = new Expander(lineValues(segments, () => stdin, new Set(parsed.functions)));
  return expander.argv(segments[segments.length - 1].words);
}

Deno.test("[destructive-bash-gate] references are substituted inside words and reshaped by their operators", () => {
  assertEquals(readings("x=r; ${x}m -rf y"), [["rm", "-rf", "y"]]);
  assertEquals(readings("x=RM; ${x,,}"), [["rm"]]);
  assertEquals(readings("x=rm; ${x^^} ${x^}"), [["RM", "Rm"]]);
  assertEquals(readings("x=a.tar.gz; ${x%.*} ${x%%.*} ${x#*.} ${x##*.}"), [[
    "a.tar",
    "a",
    "tar.gz",
    "gz",
  ]]);
  assertEquals(readings("x=aXbX; ${x/X/-} ${x//X/-} ${x:1:2} ${#x}"), [[
    "a-bX",
    "a-b-",
    "Xb",
    "4",
  ]]);
  assertEquals(readings("y=rm; z=y; ${!z}"), [["rm"]]);
});

Deno.test("[destructive-bash-gate] a default is tried beside the unknown variable it stands in for", () => {
  assertEquals(readings("rm ${o:--rf} x"), [["rm", "-rf", "x"], ["rm", "${o:--rf}", "x"]]);
  assertEquals(readings("o=; rm ${o:--rf} x"), [["rm", "-rf", "x"]]);
  assertEquals(readings("o=-f; rm ${o:--rf} x"), [["rm", "-f", "x"]]);
  assertEquals(readings("echo $nothing"), [["echo", "$nothing"]]);
});

Deno.test("[destructive-bash-gate] every value a line gives a variable is a reading of its own", () => {
  assertEquals(readings("for c in ls rm; do $c -rf x; done"), [["ls", "-rf", "x"], [
    "rm",
    "-rf",
    "x",
  ]]);
  assertEquals(readings("printf -v x '%s' rm; $x"), [["rm"]]);
  // `+=` appends to each value the variable had (the old value stays a reading too).
  assertEquals(readings("x=r; x+=m; $x -rf y"), [["r", "-rf", "y"], ["rm", "-rf", "y"]]);
  assertEquals(readings("x=r; export x+=m; $x"), [["r"], ["rm"]]);
  assertEquals(readings("declare -n r=x; x=rm; $r"), [["rm"]]);
  assertEquals(readings("mapfile -t a; ${a[1]}", ["ls\nrm"]), [["rm"]]);
  assertEquals(readings('set -- rm -rf x; "$@"'), [["rm", "-rf", "x"]]);
  assertEquals(readings('x="a b"; printf "$x" $x'), [["printf", "a b", "a", "b"]]);
  assertEquals(readings("IFS=,; x=rm,-rf; $x"), [["rm", "-rf"]]);
  assertEquals(readings("hash -p /bin/rm zap; zap -rf x"), [["/bin/rm", "-rf", "x"]]);
});

Deno.test("[destructive-bash-gate] a call of a function defined on the line gives its body the call's arguments", () => {
  const body = (line: string) => {
    const parsed = parseBash(line);
    const values = lineValues(parsed.segments, () => null, new Set(parsed.functions));
    return new Expander(values).argv(parsed.segments[0].words);
  };
  assertEquals(body('zap() { rm "$@"; }; zap -rf x'), [["rm", "-rf", "x"]]);
  assertEquals(body("zap() { rm $2 $1; }; zap x -r; zap y"), [["rm", "-r", "x"], ["rm", "y"]]);
  // A function hides the builtin of its name.
  assertEquals(body('set() { rm "$@"; }; set -- -rf x'), [["rm", "--", "-rf", "x"]]);
  // Without a call the parameters stay unknown.
  assertEquals(body('zap() { rm "$@"; }'), [["rm", "$@"]]);
});

Deno.test("[destructive-bash-gate] read without visible input leaves its variable unknown", () => {
  assertEquals(readings("read -r x; $x"), [["$x"]]);
  assertEquals(readings("read -r x; $x", ["rm"]), [["rm"]]);
});

Deno.test("[fail-to-deny] expansions that double at every step stop at their work bound", () => {
  const line = `x=${"a".repeat(1000)}; ` + "x=$x$x$x$x; ".repeat(8) + "$x";
  const segments = parseBash(line).segments;
  let spent = 0;
  const expander = new Expander(lineValues(segments, () => null), (units) => {
    spent += units;
    return true;
  });
  let stopped = false;
  try {
    expander.argv(segments[segments.length - 1].words);
  } catch (err) {
    stopped = err instanceof ExpansionTooLarge;
  }
  assert(stopped, "the expansion ran to its end");
  assert(spent <= 128 * 1024, `${spent} units spent`);
});
