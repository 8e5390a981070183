/**
 * @module
 * The one helper for optional fields: `{ a, ...defined({ b, c }) }`, not a spread per field.
 */

/** `value` without the keys whose value is undefined, so output and JSON show only what was set. */
export function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
