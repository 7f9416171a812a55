/**
 * Reading and writing the settings files `gateguard init` edits. A write
 * goes through a temporary sibling and a rename, so a crash never leaves
 * half a settings file behind.
 *
 * @module
 */

import { baseName } from "./command.ts";

function dirName(path: string): string {
  const cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  return cut <= 0 ? (cut === 0 ? path.slice(0, 1) : ".") : path.slice(0, cut);
}

/** Writes a file through a temporary sibling and a rename, keeping a symlink and the mode. */
export async function writeAtomic(path: string, text: string): Promise<void> {
  let target = path;
  let mode: number | null = null;
  try {
    if ((await Deno.lstat(path)).isSymlink) target = await Deno.realPath(path);
    mode = (await Deno.stat(target)).mode;
  } catch {
    // A new file: the defaults apply.
  }
  const dir = dirName(target);
  await Deno.mkdir(dir, { recursive: true });
  const temp = `${dir}/.${baseName(target)}.${crypto.randomUUID()}.tmp`;
  try {
    await Deno.writeTextFile(temp, text, { createNew: true });
    if (mode !== null && Deno.build.os !== "windows") await Deno.chmod(temp, mode & 0o7777);
    await Deno.rename(temp, target);
  } catch (err) {
    await Deno.remove(temp).catch(() => {});
    throw err;
  }
}

/** Reads a file as text; null when it does not exist. */
export async function readIfPresent(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
}
