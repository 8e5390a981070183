/**
 * @module
 * `loadlab presets`: the experiment files shipped inside loadlab, one row each: the name to give
 * `loadlab run preset:NAME`, the study it reproduces, how many runs it makes and how long it takes in
 * full and with `--quick` (planned, not measured: the sum of the loads, warm-ups and cooldowns).
 */
import { loadExperiment } from "../scenarios/schema.ts";
import { estimateDurationMs, planExperiment } from "../scenarios/plan.ts";
import { PRESETS } from "../scenarios/presets/mod.ts";
import { formatDurationMs } from "../report/text_format.ts";
import { boxTable } from "../report/text_tables.ts";
import { tokenize } from "./argv.ts";
import { HelpRequested, UsageError } from "./usage_error.ts";

export const PRESETS_HELP = `loadlab presets: the experiments shipped inside loadlab

Usage: loadlab presets

Run one with 'loadlab run preset:NAME' (add --quick for a shorter run of the same shape).`;

/** One row of the list. */
export interface PresetRow {
  name: string;
  title: string;
  study: string;
  runs: number;
  durationMs: number;
  quickDurationMs: number;
}

/** Plans every preset in full and quick. */
export function presetRows(): PresetRow[] {
  return PRESETS.map((preset) => {
    const full = planExperiment(loadExperiment(preset.text, { file: `preset:${preset.name}` }));
    const quick = planExperiment(loadExperiment(preset.text, { file: `preset:${preset.name}`, quick: true }));
    return {
      name: preset.name,
      title: preset.title,
      study: preset.study ?? "-",
      runs: full.runs.length,
      durationMs: estimateDurationMs(full),
      quickDurationMs: estimateDurationMs(quick),
    };
  });
}

/** Runs `loadlab presets`; returns the exit code. */
export function runPresetsCommand(argv: string[]): number {
  try {
    const raw = tokenize(argv, [{ long: "help", short: "h", takesValue: false }], {}, "presets");
    if (raw.values.has("help")) throw new HelpRequested(PRESETS_HELP);
    if (raw.positionals.length) {
      throw new UsageError(`takes no arguments, got "${raw.positionals[0]}"`);
    }
  } catch (err) {
    if (err instanceof HelpRequested) {
      console.log(err.text);
      return 0;
    }
    if (err instanceof UsageError) {
      console.error(`loadlab presets: ${err.message}`);
      return 2;
    }
    throw err;
  }
  console.log(renderPresetTable(presetRows()));
  return 0;
}

/** The aligned table `loadlab presets` prints. */
export function renderPresetTable(rows: PresetRow[]): string {
  return boxTable([
    ["preset", "study", "runs", "duration", "quick"],
    ...rows.map((r) => [
      `preset:${r.name}`,
      r.study,
      String(r.runs),
      formatDurationMs(r.durationMs),
      formatDurationMs(r.quickDurationMs),
    ]),
  ]);
}
