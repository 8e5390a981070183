/**
 * @module
 * The environment variable (`s.env`) a session reads the name of its load from when loads run together
 * (runner/attack_parts.ts): the k6 runtime (runner/script/k6/runtime.ts) runs that scenario's function.
 * A module of its own with no imports, as the k6 runtime's files are checked from a converted script's
 * folder, where no import map resolves a package.
 */

export const PART_ENV = "LOADLAB_PART";
