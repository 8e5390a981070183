/**
 * @module
 * Bounds on an experiment that keep checking it under a few seconds and its plan in memory.
 */

/** The largest experiment file and script `options` JSON loadlab reads. */
export const MAX_EXPERIMENT_FILE_BYTES = 4 * 2 ** 20;

/** A larger experiment is read as JSON: the YAML parser takes 120-200 bytes of memory per byte of text. */
export const MAX_YAML_BYTES = 2 ** 20;

/** Bracket nesting (YAML or JSON): deeper input overflows the parsers' stacks; real files nest under ten. */
export const MAX_NESTING_DEPTH = 64;

/** YAML anchors and aliases: the parser finds each alias's anchor by walking all before it (quadratic). */
export const MAX_YAML_ANCHORS = 1_000;
