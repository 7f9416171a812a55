/**
 * The SQL reader's face: which SQL texts, and which SQL client command
 * lines, destroy data. Other folders import only this module.
 *
 * @module
 */

export { sqlClientDestructive, sqlClientTexts, sqlDestructive, sqlUnbounded } from "./sql.ts";
