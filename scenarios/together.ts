/**
 * @module
 * Loads run at the same time as one run (k6's scenarios): `together: { browse: 0s, api: 30s }`.
 */
import type { ExperimentFields } from "./schema/object.ts";
import { issueList, type PathIssue as Issue } from "../validation/mod.ts";

/** The most worker isolates of the loads run together, a load's own cap (`workers` at most 64). */
const MAX_RUN_WORKERS = 64;

type Together = Pick<ExperimentFields, "together">;

/** The problems of `together:` with the rest of the file, at their paths. */
export function togetherProblems(exp: ExperimentFields): Issue[] {
  const together = exp.together;
  if (together === undefined) return [];
  const [problems, add] = issueList();
  const loads = Object.keys(exp.loads);
  // Each load run together has its own worker isolates (~40 MB each), so a run is capped as one load is.
  const workers = Object.keys(together).reduce((n, name) => n + (exp.loads[name]?.workers ?? 1), 0);
  if (workers > MAX_RUN_WORKERS) {
    add(
      ["together"],
      `${workers} load workers would run at once, at most ${MAX_RUN_WORKERS} in a run (each load ` +
        "run together, a k6 script's scenarios among them, has workers of its own): give fewer loads or " +
        "scenarios, or fewer workers, and run the others apart",
    );
  }
  for (const name of Object.keys(together)) {
    if (!loads.includes(name)) {
      add(["together", name], `no load named "${name}"; the loads are ${loads}`);
    }
  }
  const covers = (names: string[] | undefined) => (names ?? loads).some((l) => l in together);
  exp.sweeps.forEach((s, i) => {
    if (covers(s.loads)) {
      add(
        ["sweeps", i],
        "a sweep varies one load; loads that run together are one run: limit it (loads: [...])",
      );
    }
  });
  if (exp.search !== undefined && covers(exp.search.load ? [exp.search.load] : undefined)) {
    add(["search"], "a capacity search varies one load, not loads run together");
  }
  if (exp.log) {
    add(["log"], "the request log is one file per load: not with together");
  }
  return problems;
}

/** The loads to plan runs for: of those run together, the first stands for them all. */
export function plannedLoads(exp: Together, loads: string[]): string[] {
  const members = Object.keys(exp.together ?? {});
  return loads.filter((l) => !members.includes(l) || l === members.find((m) => loads.includes(m)));
}

/** One of the loads a run starts at once: when it starts after the run's start, and its attack. */
export type TogetherPart<A> = { name: string; startAfterMs: number; attack: A };

/** The run's parts when `load` stands for loads run together (`a+b`), else null. */
export function togetherParts<A>(
  exp: Together,
  load: string,
  loads: string[],
  attackOf: (name: string) => A,
): { label: string; parts: TogetherPart<A>[] } | null {
  const members = Object.keys(exp.together ?? {}).filter((m) => loads.includes(m));
  if (members[0] !== load) return null;
  return {
    label: members.join("+"),
    parts: members.map((name) => ({ name, startAfterMs: exp.together![name], attack: attackOf(name) })),
  };
}
