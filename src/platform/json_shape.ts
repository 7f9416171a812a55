/**
 * A look at the shape of JSON text before it is parsed. `JSON.parse` is
 * fast per byte but slow on text nested millions deep, and a payload of
 * millions of tiny objects costs seconds in allocation alone; both are
 * refused by one linear pass that reads brackets outside strings and stops
 * as soon as a bound is passed.
 *
 * @module
 */

/** Bounds of a JSON text's shape. */
export interface JsonShapeBounds {
  /** Deepest nesting of arrays and objects. */
  maxDepth: number;
  /** Most arrays and objects in all. */
  maxContainers: number;
}

/** True when `text` stays within `bounds`; the scan stops at the first bound passed. */
export function jsonShapeWithin(text: string, bounds: JsonShapeBounds): boolean {
  let depth = 0;
  let containers = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > bounds.maxDepth || ++containers > bounds.maxContainers) return false;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return true;
}
