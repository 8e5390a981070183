import assert from "node:assert/strict";
import { loadExperiment } from "../load.ts";
import { planExperiment } from "../plan/plan.ts";
import { checkTargetFiles, notAFolder, onlineCores } from "./files.ts";
import { findProgram } from "../../system/path_lookup.ts";
import { selfSignedPair } from "../../targets/tls_cert.ts";

const planOf = async (targets: string) =>
  planExperiment(
    await loadExperiment(`
name: files
targets:
${targets}
loads:
  l: { model: connections, connections: 1, duration: 1s }
`),
  );

Deno.test("checkTargetFiles: staticDir, command and cwd of the targets the plan starts", async () => {
  const file = Deno.makeTempFileSync();
  try {
    const issues = checkTargetFiles(
      await planOf(`
  ok: { kind: builtin, staticDir: ${Deno.cwd()} }
  missing: { kind: builtin, staticDir: /nonexistent/loadlab }
  aFile: { kind: builtin, staticDir: ${file} }
  app: { kind: external, command: loadlab-no-such-program, cwd: ${file}, url: "http://127.0.0.1:1" }
  shell: { kind: external, command: sh, url: "http://127.0.0.1:1" }
  front: { kind: proxy, upstream: { kind: builtin, staticDir: /nonexistent/loadlab } }
  running: { url: "http://127.0.0.1:1" }
`),
    );
    assert.deepEqual(issues.map((i) => i.path), [
      "targets.missing.staticDir",
      "targets.aFile.staticDir",
      "targets.app.cwd",
      "targets.app.command",
      "targets.front.upstream.staticDir",
    ]);
    assert.match(issues[0].message, /"\/nonexistent\/loadlab": no such folder; give a folder/);
    assert.match(issues[1].message, /is not a folder/);
    assert.match(issues[3].message, /no such program; install it or give its path/);
  } finally {
    Deno.removeSync(file);
  }
});

Deno.test("checkTargetFiles: a target left out by --only is not checked", async () => {
  const plan = planExperiment(
    await loadExperiment(`
name: files
targets:
  used: { url: "http://127.0.0.1:1" }
  unused: { kind: builtin, staticDir: /nonexistent/loadlab }
loads:
  l: { model: connections, connections: 1, duration: 1s }
`),
    { only: { target: ["used"] } },
  );
  assert.deepEqual(checkTargetFiles(plan), []);
});

Deno.test("notAFolder says why a path is not a folder", () => {
  assert.equal(notAFolder(Deno.cwd()), undefined);
  assert.equal(notAFolder("/nonexistent/loadlab"), "no such folder");
  assert.equal(notAFolder("/etc/hostname/x"), "cannot be read (NotADirectory)");
});

Deno.test("onlineCores reads the kernel's list of online cores", () => {
  assert.deepEqual(onlineCores("0-3,6\n"), [0, 1, 2, 3, 6]);
  assert.deepEqual(onlineCores("0"), [0]);
  assert.equal(onlineCores("garbage"), null);
  assert.equal(onlineCores(null), null);
});

Deno.test("checkTargetFiles: a cpuAffinity core this machine lacks, when taskset would pin", async () => {
  const issues = checkTargetFiles(await planOf("  pinned: { kind: builtin, cpuAffinity: [0, 999] }"));
  const pins = findProgram("taskset") !== null && onlineCores() !== null;
  if (!pins) console.log("taskset or /sys cpu list missing: cpuAffinity is ignored, so nothing to refuse");
  assert.deepEqual(
    issues.map((i) => `${i.path}: ${i.message}`),
    pins
      ? [
        `targets.pinned.cpuAffinity[1]: core 999 is not online here (cores ${
          onlineCores()!.join(", ")
        }); use one of them, or auto`,
      ]
      : [],
  );
});

Deno.test("checkTargetFiles: TLS files named at their keys, without the command-line flag", async () => {
  const dir = Deno.makeTempDirSync();
  try {
    const pair = await selfSignedPair();
    Deno.writeTextFileSync(`${dir}/cert.pem`, pair.certPem);
    Deno.writeTextFileSync(`${dir}/key.pem`, pair.keyPem);
    Deno.writeTextFileSync(`${dir}/text.pem`, "no PEM here\n");
    const issues = checkTargetFiles(
      await planOf(`
  good: { kind: builtin, tls: { cert: ${dir}/cert.pem, key: ${dir}/key.pem } }
  noCert: { kind: builtin, tls: { cert: ${dir}/missing.pem, key: ${dir}/key.pem } }
  badKey: { kind: builtin, tls: { cert: ${dir}/cert.pem, key: ${dir}/text.pem } }
  front: { kind: proxy, upstreamTls: { caFile: ${dir}/text.pem }, upstream: { url: "https://127.0.0.1:1" } }
`),
    );
    assert.deepEqual(issues.map((i) => i.path), [
      "targets.noCert.tls.cert",
      "targets.badKey.tls.key",
      "targets.front.upstreamTls.caFile",
    ]);
    for (const issue of issues) assert.doesNotMatch(issue.message, /^--/);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
