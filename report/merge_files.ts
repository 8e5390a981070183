/**
 * @module
 * Results files as one, pure (`loadlab report a.json b.json`); a repeated run name gets its file's label.
 */
import type { ResultsFile } from "../results/mod.ts";

/** One results file holding every run; a single file is returned unchanged. */
export function mergeResults(files: Array<{ label: string; results: ResultsFile }>): ResultsFile {
  if (files.length === 0) throw new RangeError("mergeResults needs at least one results file");
  if (files.length === 1) return files[0].results;
  const labels = files.map((f) => f.label).map((l, i, all) => (all.indexOf(l) === i ? l : `${l}#${i + 1}`));
  const counts = new Map<string, number>();
  for (const f of files) for (const r of f.results.runs) counts.set(r.name, (counts.get(r.name) ?? 0) + 1);
  const taken = new Set<string>();
  const runs: ResultsFile["runs"] = [];
  const thresholds: ResultsFile["thresholds"] = [];
  files.forEach((f, i) => {
    const renamed = new Map<string, string>();
    for (const run of f.results.runs) {
      let name = counts.get(run.name)! > 1 ? `${labels[i]}: ${run.name}` : run.name;
      for (let n = 2; taken.has(name); n++) name = `${labels[i]}: ${run.name} (${n})`;
      taken.add(name);
      renamed.set(run.name, name);
      runs.push({ ...run, name });
    }
    for (const t of f.results.thresholds) thresholds.push({ ...t, run: renamed.get(t.run) ?? t.run });
  });
  const first = files[0].results;
  const names = [...new Set(files.map((f) => f.results.experiment.name))];
  const baselines = new Set(files.map((f) => f.results.experiment.baseline));
  const sources = files.filter((f) => f.results.experiment.source)
    .map((f, i) => `# --- ${labels[i]} ---\n${f.results.experiment.source}`);
  return {
    ...first,
    experiment: {
      name: names.join(" + "),
      ...(sources.length ? { source: sources.join("\n") } : {}),
      ...(baselines.size === 1 && first.experiment.baseline ? { baseline: first.experiment.baseline } : {}),
    },
    runs,
    thresholds,
  };
}
