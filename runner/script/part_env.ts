/**
 * @module
 * The `s.env` variable naming a session's load when loads run together. No imports: the k6 runtime's files
 * are checked from a converted script's folder, where no import map resolves a package.
 */

export const PART_ENV = "LOADLAB_PART";
