/**
 * @module
 * The one helper for optional fields: an object without its undefined keys, so output and JSON show only
 * what was set (`{ a, ...defined({ b, c }) }` rather than a spread per field).
 */

/** `value` without the keys whose value is undefined. */
export function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
