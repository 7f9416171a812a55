/**
 * Runs async work a few items at a time: end-to-end tests spawn one process
 * per case, and a handful at once keeps two cores busy without starting
 * dozens of runtimes together.
 *
 * @module
 */

/** Processes the end-to-end tests run at once. */
export const POOL_WIDTH = 4;

/** Maps `items` through `fn`, `width` at a time, keeping the order. */
export async function pooled<T, R>(
  items: readonly T[],
  fn: (item: T, i: number) => Promise<R>,
  width: number = POOL_WIDTH,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return out;
}
