/**
 * @module
 * The header of report.html: title, environment, how it ran, thresholds and the experiment source.
 */
import type { PageData } from "../page/data.ts";
import { facts, fmtNum, h } from "./dom.ts";
import { npmCompatNote, targetRuntimes } from "./variant_matrix.ts";

/** Title, environment, how it ran (quick, target runtimes), thresholds and the experiment source. */
export function renderHeader(data: PageData): HTMLElement {
  const compat = npmCompatNote(data.runs);
  return h(
    "header",
    { class: "card" },
    h("h1", null, data.experiment.name),
    data.experiment.description ? h("p", { class: "lead" }, data.experiment.description) : null,
    // The description tells the full study; a quick run says what it ran instead, beside it.
    data.quickNote ? h("p", { class: "warn", id: "quick-values" }, data.quickNote) : null,
    facts(headerFacts(data)),
    compat ? h("p", { class: "warn", id: "npm-compat" }, compat) : null,
    thresholdsBlock(data),
    experimentSource(data),
  );
}

/** The header's facts: date, versions, machine, runs, generators, how it ran, secrets, metrics out. */
export function headerFacts(data: PageData): Array<[string, string | null]> {
  const env = data.environment;
  const quick = data.experiment.quick
    ? "--quick (the file's quick: section: shorter runs, same shape)"
    : null;
  return [
    ["date", data.createdAt],
    ["loadlab", env.loadlab],
    ["Deno / V8 / TS", `${env.deno} / ${env.v8} / ${env.typescript}`],
    ["OS", `${env.os} ${env.arch}${env.hostname ? ` (${env.hostname})` : ""}`],
    ["CPU", `${env.cpu}, ${fmtNum(env.cores, 0)} cores`],
    ["runs", String(data.runs.length)],
    ["load generators", data.shards],
    ["mode", quick],
    ["target runtime", targetRuntimes(data.runs)],
    ["secrets", data.redaction],
    ["metrics out", data.metricsOut],
  ];
}

/** Every threshold with its verdict, its run's actual and that run's flag; null when there are none. */
export function thresholdsBlock(data: PageData): HTMLElement | null {
  if (!data.thresholds.length) return null;
  const failed = data.thresholds.filter((t) => !t.ok).length;
  const head = failed ? `${failed} of ${data.thresholds.length} thresholds failed` : "All thresholds passed";
  const items = data.thresholds.map((t) =>
    h(
      "li",
      { class: t.ok ? "pass" : "fail" },
      h("span", { class: "badge" }, t.ok ? "PASS" : "FAIL"),
      ` ${t.expression} ${t.ok ? "passed" : "failed"} — ${t.run}: actual ${t.actualText}`,
      t.flagged ? " " : null,
      t.flagged ? h("span", { class: "badge flag" }, t.flagged) : null,
    )
  );
  const attrs = { class: `thresholds ${failed ? "fail" : "pass"}`, id: "thresholds" };
  return h("div", attrs, h("strong", null, head), h("ul", null, ...items));
}

/** The experiment that ran (with --quick, --set or --target applied), the file as written below it. */
export function experimentSource(data: PageData): HTMLElement | DocumentFragment {
  const out = document.createDocumentFragment();
  const ran = data.experiment.ranSource;
  if (typeof ran === "string") {
    const how = data.experiment.quick ? "--quick" : "the command line's changes";
    const summary = h("summary", null, `Experiment as run (${how} applied to the file)`);
    out.appendChild(h("details", { id: "experiment-ran" }, summary, h("pre", null, ran)));
  }
  if (data.experiment.source) {
    const title = typeof ran === "string" ? "Experiment file as written" : "Experiment source";
    out.appendChild(h("details", null, h("summary", null, title), h("pre", null, data.experiment.source)));
  }
  return out;
}
