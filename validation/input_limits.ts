/**
 * @module
 * How much loadlab reads as an experiment's description: an experiment file, or a script's `options` as
 * JSON (which say what a file would). Hand-written and generated studies are kilobytes; checking one is
 * linear in its size, and these bounds keep that under a few seconds and its plan in memory.
 */

/** The largest experiment file `loadlab run` reads, and the largest script `options` it takes. */
export const MAX_EXPERIMENT_FILE_BYTES = 4 * 2 ** 20;

/**
 * The largest experiment read as YAML; a larger one is read as JSON (validation/json_document.ts). Parsing
 * YAML peaked at 120-200 bytes of memory per byte of text (a 4 MB file: 570-840 MB, where `JSON.parse`
 * took a few MB), so 1 MiB keeps a YAML file's parse near 200 MB and holds five flows of 10,000 steps.
 */
export const MAX_YAML_BYTES = 2 ** 20;

/**
 * Levels of lists and mappings nested in brackets (`[`, `{`) in an experiment, YAML or JSON: 4 MB of `[`
 * peaked at 2.3 GB before the YAML parser's stack gave out a few hundred levels in, and JSON as deep
 * overflowed the stack of the checks after it; a real file nests fewer than ten.
 */
export const MAX_NESTING_DEPTH = 64;

/**
 * Anchors (`&name`) a YAML document may have, and aliases (`*name`): the parser finds each alias's anchor
 * by walking every anchor and alias before it, so tens of thousands of each (a 3 MB file) took two minutes.
 */
export const MAX_YAML_ANCHORS = 1_000;
