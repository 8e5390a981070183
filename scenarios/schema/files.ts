/**
 * @module
 * The checks of an experiment that need the file system, before any target starts.
 */
import { findExecutable, findProgram, readTextOrNull } from "../../system/path_lookup.ts";
import type { TargetSpec } from "../../targets/spec.ts";
import { formatPath, type Issue } from "../../validation/mod.ts";
import type { Plan } from "../plan/types.ts";
import { type TlsOptionsInput, tlsOptionsSchema } from "../../runner/http/tls/options.ts";
import { loadTlsMaterial, TlsFileError } from "../../runner/http/tls/material.ts";

/** Every file-system problem of the targets the plan starts, one per target field, and of TLS files. */
export function checkTargetFiles(plan: Plan): Issue[] {
  const issues = new Map<string, Issue>();
  for (const run of plan.runs) {
    const issue = tlsIssue(run.attack.tls, run.load);
    if (issue) issues.set(issue.path, issue);
  }
  for (const run of plan.runs) {
    if (run.target.kind !== "spec") continue;
    for (const issue of specIssues(run.target.spec, ["targets", run.variant])) issues.set(issue.path, issue);
  }
  return [...issues.values()];
}

/** A load's TLS files that cannot be read, hold no PEM, or a key that does not fit its certificate. */
function tlsIssue(tls: TlsOptionsInput | undefined, load: string): Issue | undefined {
  const err = tls && tlsFileError(tlsOptionsSchema.parse(tls));
  if (!err) return undefined;
  const key = { "--cacert": "caFile", "--cert": "certFile", "--key": "keyFile" }[err.flag] ??
    err.flag.replace(/^tls\./, "");
  return { path: formatPath(["loads", load, "tls", key]), message: withoutFlag(err) };
}

/** Why the TLS files of `material` cannot be used, or undefined when they can. */
function tlsFileError(material: Parameters<typeof loadTlsMaterial>[0]): TlsFileError | undefined {
  try {
    loadTlsMaterial(material);
  } catch (err) {
    if (!(err instanceof TlsFileError)) throw err;
    return err;
  }
}

/** The error's message without the flag it names (`--cert: `): the issue's path names the key. */
function withoutFlag(err: TlsFileError): string {
  return err.message.replace(/^--[a-z]+: /, "");
}

function specIssues(spec: TargetSpec, at: string[]): Issue[] {
  return [...fileIssues(spec, at), ...serveTlsIssues(spec, at), ...coreIssues(spec, at)];
}

/** A TLS target's own certificate and key: readable PEM, the key the certificate's. */
function serveTlsIssues(spec: TargetSpec, at: string[]): Issue[] {
  const caFile = spec.kind === "proxy" ? spec.upstreamTls?.caFile : undefined;
  const caError = caFile === undefined ? undefined : tlsFileError({ caFile });
  if (caError) return [{ path: formatPath([...at, "upstreamTls", "caFile"]), message: withoutFlag(caError) }];
  if ((spec.kind !== "builtin" && spec.kind !== "proxy") || !spec.tls || spec.tls === "self-signed") {
    return [];
  }
  const err = tlsFileError({ certFile: spec.tls.cert, keyFile: spec.tls.key });
  const key = err?.flag === "--key" ? "key" : "cert";
  return err ? [{ path: formatPath([...at, "tls", key]), message: withoutFlag(err) }] : [];
}

function fileIssues(spec: TargetSpec, at: string[]): Issue[] {
  const issue = (key: string, message: string) => ({ path: formatPath([...at, key]), message });
  switch (spec.kind) {
    case "builtin": {
      const why = spec.staticDir === undefined ? undefined : notAFolder(spec.staticDir);
      return why
        ? [issue("staticDir", `${JSON.stringify(spec.staticDir)}: ${why}; give a folder of files`)]
        : [];
    }
    case "external": {
      const found: Issue[] = [];
      const cwdProblem = spec.cwd === undefined ? undefined : notAFolder(spec.cwd);
      if (cwdProblem) {
        found.push(issue("cwd", `${JSON.stringify(spec.cwd)}: ${cwdProblem}; give the app's folder`));
      }
      if (!findExecutable(spec.command, spec.cwd)) {
        found.push(issue(
          "command",
          `${JSON.stringify(spec.command)}: no such program; install it or give its path, e.g. command: node`,
        ));
      }
      return found;
    }
    case "proxy":
      return "kind" in spec.upstream ? specIssues(spec.upstream, [...at, "upstream"]) : [];
    default:
      return [];
  }
}

/** Cores of `cpuAffinity` this machine does not have (taskset would refuse them as the target starts). */
function coreIssues(spec: TargetSpec, at: string[], cores = onlineCores()): Issue[] {
  const affinity = "cpuAffinity" in spec ? spec.cpuAffinity : undefined;
  if (!Array.isArray(affinity) || cores === null || findProgram("taskset") === null) return [];
  return affinity.flatMap((core, i) =>
    cores.includes(core) ? [] : [{
      path: formatPath([...at, "cpuAffinity", i]),
      message: `core ${core} is not online here (cores ${cores.join(", ")}); use one of them${
        spec.kind === "builtin" ? ", or auto" : ""
      }`,
    }]
  );
}

/** The online cores, from /sys/devices/system/cpu/online (`0-3,6`); null when unknown. */
export function onlineCores(text = readTextOrNull("/sys/devices/system/cpu/online")): number[] | null {
  if (text === null || !/^\d+(-\d+)?(,\d+(-\d+)?)*$/.test(text.trim())) return null;
  return text.trim().split(",").flatMap((part) => {
    const [from, to = from] = part.split("-").map(Number);
    return Array.from({ length: to - from + 1 }, (_, i) => from + i);
  });
}

/** `undefined` for an existing folder, else why not ("no such folder", "is a file", ...). */
export function notAFolder(path: string): string | undefined {
  try {
    return Deno.statSync(path).isDirectory ? undefined : "is not a folder";
  } catch (err) {
    return err instanceof Deno.errors.NotFound ? "no such folder" : `cannot be read (${(err as Error).name})`;
  }
}
