/**
 * The scale-out recipe in deploy/ does what it says, without a cluster: the Kubernetes manifests parse
 * and have what an Indexed Job needs (completions = parallelism = SEGMENTS, the completion index in
 * the env, one shared volume), and the pods' command lines (the Dockerfile's ENTRYPOINT + the Job's
 * args, `$(VAR)` expanded as the kubelet does) run here once per JOB_COMPLETION_INDEX against a local
 * built-in target with a small load, then the merge Job's command, as the Jobs would. The GitHub
 * Actions example's matrix matches its segment count. Plain processes on 127.0.0.1.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { dirname } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";
import { parse as parseYaml, parseAllDocuments } from "yaml";
import type { ResultsFile } from "../results/mod.ts";
import { shardsOnTime, withTempDir } from "./helpers.ts";
import { startLoadlab } from "./background.ts";

const DEPLOY = fromFileUrl(new URL("../deploy/", import.meta.url));
const MAIN = fromFileUrl(new URL("../main.ts", import.meta.url));

type Doc = any;
type EnvVar = { name: string; value?: string; valueFrom?: { fieldRef?: { fieldPath: string } } };

async function manifests(file: string): Promise<Doc[]> {
  return parseAllDocuments(await Deno.readTextFile(`${DEPLOY}/k8s/${file}`)).map((d) => d.toJS());
}

/** The Dockerfile's exec-form ENTRYPOINT. */
async function entrypoint(): Promise<string[]> {
  const line = (await Deno.readTextFile(`${DEPLOY}/Dockerfile`)).split("\n").find((l) =>
    l.startsWith("ENTRYPOINT")
  );
  ok(line, "the Dockerfile has an ENTRYPOINT");
  return JSON.parse(line.slice("ENTRYPOINT".length));
}

/** The container's env as the pod of `index` sees it: values, the index from the downward API. */
function podEnv(env: EnvVar[], index: number, overrides: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of env) {
    const fromIndex =
      v.valueFrom?.fieldRef?.fieldPath === "metadata.annotations['batch.kubernetes.io/job-completion-index']";
    out[v.name] = overrides[v.name] ?? (fromIndex ? String(index) : v.value ?? "");
  }
  return out;
}

/** The kubelet's `$(VAR)` expansion of command and args (`$$` escapes; unknown names stay as written). */
function expand(arg: string, env: Record<string, string>): string {
  return arg.replace(
    /\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g,
    (m, name) => (m === "$$" ? "$" : env[name] ?? m),
  );
}

/** Runs a container's command line here: its image's deno and /app/main.ts are this checkout's. */
async function runContainer(argv: string[], env: Record<string, string>) {
  const local = argv.map((a) => a.replaceAll("/app/main.ts", MAIN));
  const [program, ...args] = local[0] === "deno" ? [Deno.execPath(), ...local.slice(1)] : local;
  const out = await new Deno.Command(program, {
    args,
    env: { ...env, NO_COLOR: "1", PATH: `${dirname(Deno.execPath())}:${Deno.env.get("PATH") ?? ""}` },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
}

Deno.test("k8s manifests: an Indexed Job of SEGMENTS pods on one shared volume, and a merge Job", async () => {
  const [pvc, job] = await manifests("job.yaml");
  const [merge] = await manifests("merge.yaml");
  assertEquals([pvc.kind, job.kind, merge.kind], ["PersistentVolumeClaim", "Job", "Job"]);
  assertEquals(job.spec.completionMode, "Indexed");
  const container = job.spec.template.spec.containers[0];
  const segments = Number(container.env.find((v: EnvVar) => v.name === "SEGMENTS").value);
  assertEquals(
    [job.spec.completions, job.spec.parallelism],
    [segments, segments],
    "every segment runs at once",
  );
  assertEquals(job.spec.template.spec.restartPolicy, "Never");
  ok(container.args.includes("$(JOB_COMPLETION_INDEX)/$(SEGMENTS)"), "--segment from the completion index");
  for (const j of [job, merge]) {
    const volume = j.spec.template.spec.volumes[0];
    assertEquals(volume.persistentVolumeClaim.claimName, pvc.metadata.name);
    assertEquals(j.spec.template.spec.containers[0].volumeMounts[0].mountPath, "/results");
  }
  assertEquals(container.image, merge.spec.template.spec.containers[0].image);
});

Deno.test("github actions example: a matrix of SEGMENTS shards, then a merge of their artifacts", async () => {
  const flow = parseYaml(await Deno.readTextFile(`${DEPLOY}/github-actions.yml`));
  const segments = Number(flow.env.SEGMENTS);
  assertEquals(flow.jobs.shard.strategy.matrix.segment, Array.from({ length: segments }, (_, i) => i));
  const run = flow.jobs.shard.steps.map((s: Doc) => s.run ?? "").join("\n");
  ok(run.includes("--segment ${{ matrix.segment }}/$SEGMENTS") && run.includes("--start-at"), run);
  assertEquals(flow.jobs.merge.needs, "shard");
  ok(flow.jobs.merge.steps.some((s: Doc) => /main\.ts merge shards\/shard-\*\.json/.test(s.run ?? "")));
});

Deno.test("the Job's pods, run here per JOB_COMPLETION_INDEX, then the merge Job: the whole load", async () => {
  const [, job] = await manifests("job.yaml");
  const [merge] = await manifests("merge.yaml");
  const container = job.spec.template.spec.containers[0];
  const segments = job.spec.completions;
  const target = await startLoadlab(["serve", "--port", "0"], /listening on (http:\/\/\S+)/);
  try {
    await withTempDir(async (dir) => {
      // What a user edits (envsubst fills START_AT): the target, a small bounded load, the volume.
      const overrides = (startAt: string) => ({
        START_AT: startAt.replace(/\.\d+Z$/, "Z"),
        TARGET_URL: `${target.url}/json`,
        RATE: "200",
        DURATION: "1s",
        RESULTS_DIR: dir,
      });
      const command = await entrypoint();
      const shardRun = async (i: number) =>
        (JSON.parse(await Deno.readTextFile(`${dir}/shard-${i}.json`)) as ResultsFile).runs[0];
      const { startAt } = await shardsOnTime(segments, (index, startAt) => {
        const env = podEnv(container.env, index, overrides(startAt));
        return runContainer([...command, ...container.args.map((a: string) => expand(a, env))], env);
      }, async (i) => [(await shardRun(i)).segment?.lateMs ?? 0]);
      const mergeContainer = merge.spec.template.spec.containers[0];
      const env = podEnv(mergeContainer.env, 0, overrides(startAt));
      const merged = await runContainer(mergeContainer.command.map((a: string) => expand(a, env)), env);
      const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/results.json`));
      // The manifests' `p99 < 500ms` is judged on the whole load: it passes on a quiet machine and may fail
      // when the suite's other files starve the pods; either way merge's exit code follows it.
      const passed = results.thresholds.every((t) => t.ok);
      assertEquals(merged.code, passed ? 0 : 1, merged.stdout + merged.stderr);
      assertEquals(results.shards?.shards.map((s) => s.index), [0, 1, 2, 3].slice(0, segments));
      // The merge is exact: the shards' responses, added. The schedule's split is proved in
      // runner/load/segment_test.ts and tests/scale_out_test.ts; here a busy machine may lose a response
      // past the graceful stop, so the whole load is 200 sends at most, nearly all answered.
      let shardRequests = 0;
      for (let i = 0; i < segments; i++) {
        shardRequests += (await shardRun(i)).requests;
      }
      const run = results.runs[0];
      assertEquals(run.requests, shardRequests);
      const what = `requests ${run.requests}, errors ${
        JSON.stringify(run.errors)
      }, dropped ${run.droppedSends}`;
      ok(run.requests <= 200 && run.requests >= 180, `200/s for 1 s, once over all pods: ${what}`);
      assertEquals(results.thresholds.map((t) => t.expression), ["p99 < 500ms"]);
      ok((await Deno.stat(`${dir}/report.html`)).isFile);
    });
  } finally {
    target.child.kill("SIGINT");
    await target.done;
  }
});
