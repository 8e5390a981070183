/**
 * @module
 * Reads a zod 4 schema's `_zod.def` for the issue formatter; an unknown kind dulls the wording.
 */
import type { z } from "zod";

type Schema = z.core.$ZodType;
type Def = Record<string, any> & { type: string };

function defOf(schema: Schema): Def {
  return schema._zod.def as Def;
}

/** Looks through wrappers that leave the written form unchanged. */
export function unwrap(schema: Schema): Schema {
  let current = schema;
  for (let depth = 0; depth < 32; depth++) {
    const def = defOf(current);
    if (
      ["optional", "nullable", "default", "prefault", "readonly", "catch", "nonoptional"].includes(def.type)
    ) current = def.innerType;
    else if (def.type === "pipe") current = def.in;
    else if (def.type === "lazy") current = def.getter();
    else return current;
  }
  return current;
}

/** The schemas at `path` (several when it crosses a union). */
export function schemasAt(root: Schema, path: readonly PropertyKey[]): Schema[] {
  let found = [unwrap(root)];
  for (const key of path) {
    found = found.flatMap((s) => optionsOf(s)).flatMap((s) => child(s, key)).map(unwrap);
    if (found.length === 0) return [];
  }
  return found.flatMap((s) => optionsOf(s));
}

function optionsOf(schema: Schema): Schema[] {
  const s = unwrap(schema);
  const def = defOf(s);
  if (def.type === "union") return (def.options as Schema[]).flatMap((o) => optionsOf(o));
  return [s];
}

function child(schema: Schema, key: PropertyKey): Schema[] {
  const def = defOf(schema);
  if (def.type === "object") {
    const shape = def.shape as Record<string, Schema>;
    if (typeof key === "string" && key in shape) return [shape[key]];
    // Strict objects have a `never` catchall.
    return def.catchall && defOf(def.catchall).type !== "never" ? [def.catchall] : [];
  }
  if (def.type === "array") return [def.element];
  if (def.type === "record") return [def.valueType];
  if (def.type === "tuple") {
    const items = def.items as Schema[];
    if (typeof key === "number" && key < items.length) return [items[key]];
    return def.rest ? [def.rest] : [];
  }
  if (def.type === "intersection") return [...child(unwrap(def.left), key), ...child(unwrap(def.right), key)];
  return [];
}

/** The keys an object at `path` accepts; `value` picks the member of a discriminated union. */
export function allowedKeysAt(root: Schema, path: readonly PropertyKey[], value?: unknown): string[] {
  let objects = schemasAt(root, path).filter((s) => defOf(s).type === "object");
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    const matching = objects.filter((s) => matchesLiterals(s, record));
    if (matching.length > 0) objects = matching;
  }
  const keys = new Set<string>();
  for (const o of objects) for (const k of Object.keys(defOf(o).shape)) keys.add(k);
  return [...keys];
}

function matchesLiterals(object: Schema, value: Record<string, unknown>): boolean {
  for (const [key, field] of Object.entries(defOf(object).shape as Record<string, Schema>)) {
    const def = defOf(unwrap(field));
    if (def.type === "literal" && key in value && !(def.values as unknown[]).includes(value[key])) {
      return false;
    }
  }
  return true;
}

/** What any of `schemas` expects in a few words ("a number or a string"), or `undefined`. */
export function describeAll(schemas: Schema[]): string | undefined {
  const parts = schemas.flatMap(optionsOf).map(describeOne);
  if (parts.length === 0 || parts.some((p) => p === undefined)) return undefined;
  return [...new Set(parts)].join(" or ");
}

function describeOne(schema: Schema): string | undefined {
  // A schema may say it itself, `.meta({ expected: "a duration, e.g. 10s" })`, read with no schema library.
  const expected = (schema as { meta?: () => { expected?: unknown } | undefined }).meta?.()?.expected;
  if (typeof expected === "string") return expected;
  const def = defOf(schema);
  if (def.type === "number") {
    return (schema as unknown as { isInt?: boolean }).isInt ? "a whole number" : "a number";
  }
  if (def.type === "enum") return oneOf(Object.values(def.entries as Record<string, unknown>));
  if (def.type === "literal") return oneOf(def.values as unknown[]);
  return EXPECTED_WORDS[def.type];
}

/** What a value of each plain type is, as an error says it expected one. */
export const EXPECTED_WORDS: Record<string, string> = {
  number: "a number",
  int: "a whole number",
  bigint: "a whole number",
  string: "a string",
  boolean: "true or false",
  array: "a list",
  tuple: "a list",
  object: "an object",
  record: "an object",
  null: "null",
};

export function oneOf(values: readonly unknown[]): string {
  // An optional discriminator lists `undefined`, which nobody can write.
  const shown = values.filter((v) => v !== undefined).map((v) => JSON.stringify(v));
  return shown.length === 1 ? shown[0] : `one of ${shown.join(", ")}`;
}
