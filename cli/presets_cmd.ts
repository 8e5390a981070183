/**
 * @module
 * `loadlab presets`: the experiment files shipped inside loadlab, with their runs and durations.
 */
import { loadPlan } from "../scenarios/load.ts";
import { type DurationRange, estimateRangeMs } from "../scenarios/plan/plan.ts";
import { PRESETS } from "../scenarios/presets/mod.ts";
import { formatDurationMs } from "../results/text_format.ts";
import { boxTable } from "../report/terminal/tables.ts";
import { noArguments } from "./argv.ts";
import { EXIT } from "./exit_codes.ts";
import { runCommand } from "./command_errors.ts";

const PRESETS_HELP = `loadlab presets: the experiments shipped inside loadlab

Usage: loadlab presets

Run one with 'loadlab run preset:NAME' (add --quick for a shorter run of the same shape). Durations are
ranges estimated from the plan (loads, cooldowns, start-up, target starts, graceful stops): an idle
machine lands near the low end, a busy one near the high end.`;

type PresetRow = Awaited<ReturnType<typeof presetRows>>[number];

/** Plans every preset in full and quick. */
export function presetRows() {
  return Promise.all(PRESETS.map(async (preset) => {
    // Listed, not run: no checks of this machine (a preset's example apps may need a missing node).
    const file = `preset:${preset.name}`;
    const full = await loadPlan(preset.text, { file, preflight: false });
    const quick = await loadPlan(preset.text, { file, quick: true, preflight: false });
    return {
      name: preset.name,
      study: full.experiment.study ?? "-",
      runs: full.runs.length,
      duration: estimateRangeMs(full),
      quickDuration: estimateRangeMs(quick),
    };
  }));
}

export function runPresetsCommand(argv: string[]): Promise<number> {
  return runCommand("presets", async () => {
    noArguments(argv, "presets", PRESETS_HELP);
    console.log(renderPresetTable(await presetRows()));
    return EXIT.ok;
  });
}

export function renderPresetTable(rows: PresetRow[]): string {
  return boxTable([
    ["preset", "study", "runs", "duration", "quick"],
    ...rows.map((r) => [
      `preset:${r.name}`,
      r.study,
      String(r.runs),
      formatRange(r.duration),
      formatRange(r.quickDuration),
    ]),
  ]);
}

/** `~58 s-1m 28s`: whole seconds, since neither end is more precise than that. */
export function formatRange(range: DurationRange): string {
  const fmt = (ms: number) => {
    const sec = Math.round(ms / 1000);
    return sec < 60 ? `${sec} s` : formatDurationMs(sec * 1000);
  };
  return `~${fmt(range.lowMs)}-${fmt(range.highMs)}`;
}
