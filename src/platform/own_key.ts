/**
 * A table lookup by a word the input chose. A plain object's lookup also
 * finds the keys every object inherits (`constructor`, `toString`,
 * `__proto__`), so a command named `constructor` would read a function
 * where a table entry was expected; only the table's own keys count.
 *
 * @module
 */

/** The entry of `table` under `key` when the table itself holds that key; undefined otherwise. */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
