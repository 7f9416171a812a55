/**
 * The read-only check's face: whether a shell command only reads (a search
 * or a listing the file gate may credit). Other folders import only this
 * module.
 *
 * @module
 */

export { loadReadOnly, plainWords, readOnlyKind } from "./readonly.ts";
