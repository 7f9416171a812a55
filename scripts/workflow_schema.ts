/**
 * Validates a GitHub Actions workflow against the workflow schema, with the
 * `@action-validator/core` package from the npm registry (its schema and
 * validator are compiled to WebAssembly: it runs offline once fetched). Deno
 * fetches it once into its npm cache; the version is pinned in deno.json's
 * imports and its checksum in deno.lock.
 *
 * The package is loaded on first use, and a failed download is returned as
 * a reason rather than thrown, so a test can skip and say why.
 *
 * @module
 */

/** One error as the validator reports it; `states` holds the alternatives of a oneOf. */
interface ValidatorError {
  code: string;
  detail?: string;
  path?: string;
  title: string;
  states?: { errors: ValidatorError[] }[];
}

type Validator = { validateWorkflow(src: string): { errors: ValidatorError[] } };

/** The validator's verdict: schema errors, one line each, or why it could not run. */
export type SchemaResult = { ok: true; errors: string[] } | { ok: false; reason: string };

let loaded: Promise<Validator> | null = null;

function loadValidator(): Promise<Validator> {
  loaded ??= import("@action-validator/core") as Promise<Validator>;
  return loaded;
}

/** Flattens nested validator errors into `path: detail` lines, without repeats. */
export function errorLines(errors: readonly ValidatorError[]): string[] {
  const lines = new Set<string>();
  const walk = (list: readonly ValidatorError[]) => {
    for (const e of list) {
      if (e.states) { for (const s of e.states) walk(s.errors); }
      else lines.add(`${e.path ?? "(document)"}: ${e.detail ?? e.title}`);
    }
  };
  walk(errors);
  return [...lines];
}

/** Validates workflow YAML text against the workflow schema. */
export async function validateWorkflowText(text: string): Promise<SchemaResult> {
  let validator: Validator;
  try {
    validator = await loadValidator();
  } catch (err) {
    loaded = null;
    const why = err instanceof Error ? err.message.split("\n")[0] : String(err);
    return { ok: false, reason: `@action-validator/core could not be installed from npm: ${why}` };
  }
  return { ok: true, errors: errorLines(validator.validateWorkflow(text).errors) };
}

/** Validates the workflow file at `path`. */
export async function validateWorkflowFile(path: string): Promise<SchemaResult> {
  return await validateWorkflowText(await Deno.readTextFile(path));
}
