/**
 * What reaches each command's stdin along the pipelines of one Bash line,
 * gathered in a single pass over its segments.
 *
 * A command in a pipeline reads what every command before it wrote (an
 * unknown program may pass its input on), a group or compound a pipe
 * feeds (`… | { a; b; }`, `… | while …`) hands that input to every
 * command inside it, and what a group writes as a whole is what all of
 * its commands wrote (`{ a; b; } | sh`). Commands inside substitutions
 * count as writers too, which only errs on the side of reading more.
 *
 * Each nesting depth keeps one list of the texts written since the last
 * command that started a statement there; a compound fed by a pipe
 * shares its parent's list instead. A text is appended once and copied
 * once per compound it leaves, so the whole pass is linear in the texts
 * times the nesting bound, where looking back along every pipeline from
 * each of its commands was quadratic.
 *
 * @module
 */

import type { Segment } from "../bash/mod.ts";
import type { UnreadableRule } from "./unreadable.ts";

/** The texts flowing at one depth, and whether any of them cannot be read from the line. */
export interface Stream {
  readonly texts: string[];
  /** The rule naming text that reached it unreadable (decoded or fetched), or null. */
  hidden: UnreadableRule | null;
}

/** One pass over a line's segments, in order. */
export class PipeFlow {
  /** Texts appended or copied so far: the pass's work, which tests bound. */
  moved = 0;
  private readonly streams: Stream[] = [];
  /** Whether the stream at a depth is its parent's, fed by a pipe. */
  private readonly fed: boolean[] = [];

  /** `outer` is what the whole line reads on its stdin (a script a shell was fed). */
  constructor(private readonly outer: readonly string[]) {}

  private fresh(): Stream {
    this.moved += this.outer.length;
    return { texts: [...this.outer], hidden: null };
  }

  /** Hands what depth `k` wrote to depth `k - 1`, as a group's output. */
  private fold(k: number): void {
    if (k === 0 || this.fed[k]) return;
    const parent = this.streams[k - 1];
    const child = this.streams[k];
    for (const t of child.texts) parent.texts.push(t);
    this.moved += child.texts.length;
    parent.hidden ??= child.hidden;
  }

  /**
   * A new statement at depth `k`: what the last one wrote becomes part of
   * the enclosing group's output. Inside a compound a pipe feeds, every
   * statement keeps reading the pipe.
   */
  private restart(k: number): void {
    if (this.fed[k]) return;
    this.fold(k);
    this.streams[k] = this.fresh();
  }

  /**
   * Moves to `seg` (the next segment of the line) and returns the stream
   * it reads, with `own` (its here-documents, here-strings and redirected
   * substitutions) added. The stream is live: it must be read before the
   * next call.
   */
  enter(seg: Segment, own: readonly string[]): Stream {
    const d = seg.depth;
    for (let k = this.streams.length - 1; k > d; k--) this.fold(k);
    this.streams.length = Math.min(this.streams.length, d + 1);
    this.fed.length = this.streams.length;
    const top = this.streams.length - 1;
    if (top < d) {
      // Entering compounds: a pipe feeds them the stream it carries; a
      // separator (`; ( … )`, `&& { … }`) starts a statement where it stands.
      if (!seg.piped && seg.sepBefore !== "start" && top >= 0) this.restart(top);
      const carried = seg.piped && top >= 0 ? this.streams[top] : null;
      for (let k = top + 1; k <= d; k++) {
        this.streams[k] = carried ?? this.fresh();
        this.fed[k] = carried !== null;
      }
    } else if (!seg.piped) this.restart(d);
    const stream = this.streams[d];
    for (const t of own) stream.texts.push(t);
    this.moved += own.length;
    return stream;
  }

  /** Adds what the segment just entered writes; `hidden` names unreadable text among it. */
  wrote(depth: number, texts: readonly string[], hidden: UnreadableRule | null): void {
    const stream = this.streams[depth];
    for (const t of texts) stream.texts.push(t);
    this.moved += texts.length;
    stream.hidden ??= hidden;
  }
}
