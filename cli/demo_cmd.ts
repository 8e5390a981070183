/**
 * @module
 * `loadlab demo`: runs the demo experiment (the built-in target under each load model) and writes
 * `results.json` and `report.html` into `--out-dir` (default `out/demo`), printing a summary per run.
 */
import { interruptSignal, liveLine } from "./live.ts";
import { writeReport } from "../report/write.ts";
import { runDemo } from "../runner/demo.ts";
import { writeResultsFile } from "../results/io.ts";
import { renderSummary } from "../report/text.ts";

export const DEMO_HELP = `loadlab demo: the built-in target under a short load of each model, with a report

Usage: loadlab demo [--out-dir out/demo] [--quick]

  --out-dir <dir>  where results.json, report.html and target logs go (default out/demo)
  --quick          a shorter demo (about a quarter of the time)
  -h, --help       this help`;

/** Runs the command; returns the exit code. */
export async function runDemoCommand(argv: string[]): Promise<number> {
  let outDir = "out/demo";
  let quick = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "-h" || arg === "--help") {
      console.log(DEMO_HELP);
      return 0;
    } else if (arg === "--quick") quick = true;
    else if (arg === "--out-dir" && argv[i + 1] !== undefined) outDir = argv[++i];
    else if (arg.startsWith("--out-dir=")) outDir = arg.slice("--out-dir=".length);
    else {
      console.error(`loadlab demo: unknown argument "${arg}"; use --out-dir <dir> or --quick (see --help)`);
      return 2;
    }
  }
  await Deno.mkdir(outDir, { recursive: true });
  const live = liveLine(true);
  const interrupt = interruptSignal();
  let results;
  try {
    results = await runDemo({ quick, logDir: outDir }, {
      signal: interrupt.signal,
      onRunStart: (load) => console.log(`\n== ${load.name}: ${load.description}`),
      onProgress: live.onProgress,
      onRunEnd: (run) => {
        live.done();
        console.log(renderSummary(run, { color: Deno.stdout.isTerminal() && !Deno.noColor }));
      },
    });
  } finally {
    live.done();
    interrupt.dispose();
  }
  const resultsPath = `${outDir}/results.json`;
  const reportPath = `${outDir}/report.html`;
  await writeResultsFile(resultsPath, results);
  await writeReport(reportPath, results);
  console.log(`\nresults: ${resultsPath}\nreport:  ${reportPath}`);
  return 0;
}
