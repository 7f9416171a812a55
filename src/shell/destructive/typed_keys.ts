/**
 * Keys typed into a terminal session by a multiplexer: `tmux send-keys`
 * and `screen -X stuff` type text into a shell that runs it as a command
 * line, so the text they type is a script. Keys may be split across
 * arguments (`send-keys rm Space -rf Space x Enter`): tmux types them one
 * after the other, so they are joined before reading.
 *
 * @module
 */

/** tmux key names that type a character rather than text. */
const TMUX_KEYS: Readonly<Record<string, string>> = {
  enter: "\n",
  "c-m": "\n",
  "c-j": "\n",
  kpenter: "\n",
  space: " ",
  tab: "\t",
};

/** `send-keys` options that take the next word as their value. */
const SEND_KEYS_VALUED = new Set(["-t", "-N", "-c"]);

/** Most arguments read as keys, so the work stays linear. */
const MAX_KEYS = 256;

/** The text typed by `tmux … send-keys …` after the subcommand, or null when it types none. */
function tmuxKeys(args: readonly string[]): string | null {
  const at = args.findIndex((a) => a === "send-keys" || a === "send");
  if (at < 0) return null;
  let text = "";
  let literal = false;
  for (let i = at + 1; i < Math.min(args.length, at + 1 + MAX_KEYS); i++) {
    const a = args[i];
    // `\;` ends the tmux command; another may follow.
    if (a === ";") break;
    if (SEND_KEYS_VALUED.has(a)) {
      i++;
      continue;
    }
    if (/^-[lRMXHK]+$/.test(a)) {
      literal ||= a.includes("l");
      continue;
    }
    const key = literal ? undefined : TMUX_KEYS[a.toLowerCase()];
    text += key ?? a;
  }
  return text === "" ? null : text;
}

/** The text typed by `screen … -X stuff 'text'`: `^M` and `\n` end a line. */
function screenStuff(args: readonly string[]): string | null {
  const at = args.findIndex((a, i) => a === "stuff" && i > 0 && args[i - 1] === "-X");
  if (at < 0 || args[at + 1] === undefined) return null;
  return args[at + 1].replace(/\^M|\\n|\\r/g, "\n");
}

/** The text a multiplexer named `name` types into a session, or null when it types none. */
export function typedKeys(name: string, args: readonly string[]): string | null {
  if (name === "tmux" || name === "byobu") return tmuxKeys(args);
  if (name === "screen") return screenStuff(args);
  return null;
}
