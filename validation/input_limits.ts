/**
 * @module
 * How much loadlab reads as an experiment's description: an experiment file, or a script's `options` as
 * JSON (which say what a file would). Hand-written and generated studies are kilobytes; checking one is
 * linear in its size, and this bound keeps that under a few seconds and its plan in memory.
 */

/** The largest experiment file `loadlab run` reads, and the largest script `options` it takes. */
export const MAX_EXPERIMENT_FILE_BYTES = 4 * 2 ** 20;
