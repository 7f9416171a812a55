/**
 * The turn every agent's session-log reader reads its log into: the
 * current turn's id and its search, shell and `Read` calls, each with
 * whether it completed cleanly and whether it rode in the pending call's
 * own batch. Prior-search credit (`evidence/`) and the file gate judge this
 * `TurnScan` alone, so they apply unchanged whichever agent's log it came
 * from; a reader that cannot tell a turn or a batch apart gives nothing.
 *
 * Beside it, the pairing of calls with results for the logs that write a
 * result as a record of its own (Codex, Copilot CLI): `noteAnswer` while
 * walking, `pairShellCalls` once the walk is done.
 *
 * @module
 */

/** One tool call of the current turn. */
export interface TurnCall {
  /** The `tool_use` id. */
  id: string;
  /** The tool name, one of the scan's `tools`. */
  tool: string;
  /** The call's input object (empty when the record had none). */
  input: Record<string, unknown>;
  /**
   * True when the call has exactly one use and one result in the window,
   * the result is in this turn, is not an error, and belongs to this prompt.
   */
  completed: boolean;
  /** True when the call rode in the pending call's own assistant message. */
  sameBatch: boolean;
  /** The `message.id` of its assistant record: calls sharing one were sent in one batch. */
  messageId: string | null;
  /**
   * The `cwd` its assistant record carries: where the client's shell stood
   * when the model sent the call (Claude Code keeps a shell's directory
   * changes for later calls). Null when the record has none.
   */
  cwd: string | null;
  /** The client refused to run it (a hook or permission denial): it never ran. */
  denied: boolean;
}

/** What the scan found about the current turn. */
export interface TurnScan {
  /**
   * The turn id: the payload's `prompt_id` when given, else the turn
   * start's `promptId`, `uuid` or line hash, else the `promptId` a clipped
   * window agrees on; null when none applies.
   */
  turnId: string | null;
  /** The turn's calls of the tools asked for, newest first, whatever their outcome. */
  calls: readonly TurnCall[];
  /**
   * How many other tool calls, of any tool, ride in the pending call's own
   * assistant message as far as the log holds it; null when the pending
   * call is not in it. A reader that cannot tell leaves it out.
   */
  batchMates?: number | null;
}

/** A scan, and whether the pending call's own record was already in the transcript. */
export interface TurnScanResult extends TurnScan {
  /**
   * True when the payload's `tool_use_id` is among the tool uses the walk
   * read. Claude Code appends records asynchronously, so a hook may run
   * before its own call is written; then the newest message in the file is
   * an earlier batch.
   */
  pendingFound: boolean;
}

/** What `scanTurn` is asked about. */
export interface TurnScanInput {
  transcriptPath: string;
  /** The payload's `prompt_id`, when present. */
  promptId: string | null;
  /** The pending call's `tool_use_id`, when present. */
  toolUseId: string | null;
  /**
   * The names of the tools whose calls to keep; the caller's tool table
   * says which. Other calls still count for pairing and batching.
   */
  tools: ReadonlySet<string>;
}

/**
 * A tool call of a log that answers calls in records of their own (Codex,
 * Copilot CLI), newest first, for `pairShellCalls`.
 */
export interface LoggedUse {
  /** The call id its results name. */
  id: string;
  /** What names the batch it was sent in. */
  batch: string;
  /** Its shell command when the scan keeps it; null for any other call, which still counts for pairing. */
  command: string | null;
}

/** The results written for one call id: how many, and how the oldest one read. */
export interface LoggedAnswer {
  count: number;
  clean: boolean;
  denied: boolean;
}

/** Records a result met by a backward walk: it is counted, and the older one's reading wins. */
export function noteAnswer(
  answers: Map<string, LoggedAnswer>,
  id: string,
  reading: { clean: boolean; denied: boolean },
): void {
  answers.set(id, { count: (answers.get(id)?.count ?? 0) + 1, ...reading });
}

/**
 * The kept calls of `uses` as `TurnCall`s of the shell tool `tool`: one
 * completed when its id has exactly one use and one result and the result
 * reads clean, and it rode in the pending call's batch when its batch is
 * `batch`. Each runs in a fresh shell in the session's directory, so no
 * call carries a `cwd`.
 */
export function pairShellCalls(
  uses: readonly LoggedUse[],
  answers: ReadonlyMap<string, LoggedAnswer>,
  batch: string | null,
  tool: string,
): TurnCall[] {
  const counts = new Map<string, number>();
  for (const use of uses) counts.set(use.id, (counts.get(use.id) ?? 0) + 1);
  return uses.flatMap((use) => {
    if (use.command === null) return [];
    const answer = answers.get(use.id);
    return [{
      id: use.id,
      tool,
      input: { command: use.command },
      completed: counts.get(use.id) === 1 && answer?.count === 1 && answer.clean,
      sameBatch: use.batch === batch,
      messageId: use.batch,
      cwd: null,
      denied: answer?.denied === true,
    }];
  });
}
