/**
 * @module
 * The output folder of a running experiment, both files rewritten whole after every run.
 */
import { buildResultsFile, loadResultsFile, resultsText, writeResultsFile } from "../../results/io.ts";
import { OutputError, WriteError, writeTextAtomic, writeTextAtomicSync } from "../../system/output_file.ts";
import type { ExperimentInfo, ResultsFile, RunResult } from "../../results/mod.ts";
import { ResultsFileError } from "../../results/mod.ts";
import { redactResults } from "../../results/redact_results.ts";
import { noResponse } from "../../results/conclude/responses.ts";
import { DescriptorReserve } from "../../system/descriptors.ts";

/** Turns the results so far into the text of report.html. */
export type RenderReport = (results: ResultsFile) => string;

/** Whether `--resume` keeps a run of the file: a complete one. */
function keptOnResume(run: RunResult): boolean {
  return !run.incomplete && !run.probe && !noResponse(run);
}

/** Holds the results of one experiment and writes them out. */
export class ExperimentOutput {
  readonly resultsPath: string;
  readonly reportPath: string;
  readonly #reserve = new DescriptorReserve();
  /** The write under way (its failure told its own caller): the next one starts once it is done. */
  #writing: Promise<void> = Promise.resolve();

  private constructor(
    outDir: string,
    public results: ResultsFile,
    private readonly render: RenderReport,
    /** `--no-redact`: written as they are, secrets included. */
    readonly keepSecrets: boolean,
  ) {
    this.resultsPath = `${outDir}/results.json`;
    this.reportPath = `${outDir}/report.html`;
  }

  /** A fresh file, or with `resume` the one in `outDir` minus the runs it does not keep. */
  static async open(
    outDir: string,
    experiment: ExperimentInfo,
    resume: boolean,
    render: RenderReport,
    keepSecrets = false,
  ): Promise<ExperimentOutput> {
    const fresh = ExperimentOutput.fresh(outDir, experiment, render, keepSecrets);
    if (!resume || !(await exists(`${outDir}/results.json`))) return fresh;
    const previous = await loadResultsFile(`${outDir}/results.json`);
    if (previous.experiment.name !== experiment.name) {
      throw new ResultsFileError(
        `${outDir}/results.json: holds experiment "${previous.experiment.name}", not "${experiment.name}"; ` +
          `resume into its own folder or drop --resume`,
      );
    }
    return new ExperimentOutput(
      outDir,
      {
        ...fresh.results,
        createdAt: previous.createdAt,
        environment: previous.environment,
        runs: previous.runs.filter(keptOnResume),
        ...(previous.redaction ? { redaction: previous.redaction } : {}),
      },
      render,
      keepSecrets,
    );
  }

  /** A new file with no run yet (`complete: false`), nothing written. */
  static fresh(outDir: string, experiment: ExperimentInfo, render: RenderReport, keepSecrets: boolean) {
    const results: ResultsFile = { ...buildResultsFile({ experiment, runs: [] }), complete: false };
    return new ExperimentOutput(outDir, results, render, keepSecrets);
  }

  completedNames(): Set<string> {
    return new Set(this.results.runs.filter(keptOnResume).map((r) => r.name));
  }

  /** Adds one run and writes both files. */
  async append(run: RunResult): Promise<RunResult> {
    this.results = { ...this.results, runs: [...this.results.runs, run] };
    await this.write();
    return this.shown(run);
  }

  /** `run` as results.json shows it (secrets redacted unless kept), for the run line and `Checks:` block. */
  shown(run: RunResult): RunResult {
    return this.keepSecrets ? run : redactResults({ ...this.results, runs: [run] }).runs[0];
  }

  /** Replaces the whole file's content (analysis, thresholds, `complete`) and writes both files. */
  async update(patch: Partial<ResultsFile>): Promise<void> {
    this.results = { ...this.results, ...patch };
    await this.write();
  }

  /** Writes both files after any write under way, each whole; throws `OutputError` naming the failed one. */
  write(): Promise<void> {
    const keepSecrets = this.keepSecrets;
    const next = this.#writing.then(() =>
      this.#reserve.around(async () => {
        await written(
          this.resultsPath,
          () => writeResultsFile(this.resultsPath, this.results, { keepSecrets }),
        );
        await written(this.reportPath, () => writeTextAtomic(this.reportPath, this.render(this.results)));
      })
    );
    this.#writing = next.catch(() => {});
    return next;
  }

  /** Writes both files synchronously, for a second Ctrl-C or SIGTERM before loadlab quits. */
  writeSync(): void {
    Deno.mkdirSync(this.resultsPath.slice(0, this.resultsPath.lastIndexOf("/")) || ".", { recursive: true });
    writeTextAtomicSync(this.resultsPath, resultsText(this.results, { keepSecrets: this.keepSecrets }));
    writeTextAtomicSync(this.reportPath, this.render(this.results));
  }

  /** Gives back the reserved descriptors; later writes still work, without the reserve. */
  close(): void {
    this.#reserve.close();
  }
}

async function written(path: string, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (err) {
    const why = err instanceof WriteError ? err.reason : String(err);
    throw new OutputError(`cannot write ${path}: ${why}`, { cause: err });
  }
}

/** False only when nothing is there: anything else (a symlink loop, no permission) is read, saying why. */
async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (err) {
    return !(err instanceof Deno.errors.NotFound);
  }
}
