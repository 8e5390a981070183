/**
 * @module
 * What this machine is, as a results file records where it ran: OS and release, architecture, CPU model
 * (Linux `/proc/cpuinfo`), core count, hostname, and the git commit checked out in the working directory
 * (spawns `git`, so callers read it once per file, not per run). Each read that fails (no permission, not
 * Linux, no git) leaves its field unknown instead of failing the run.
 */

/** This machine: OS with its release, architecture, CPU model, cores and hostname (when readable). */
export interface HostInfo {
  os: string;
  arch: string;
  cpu: string;
  cores: number;
  hostname?: string;
}

/** This machine as `HostInfo`; fields that cannot be read are `unknown` or left out. */
export function hostInfo(): HostInfo {
  return {
    os: `${Deno.build.os} ${safe(() => Deno.osRelease()) ?? ""}`.trim(),
    arch: Deno.build.arch,
    cpu: cpuModel(),
    cores: navigator.hardwareConcurrency,
    hostname: safe(() => Deno.hostname()),
  };
}

/** The commit checked out in the working directory; undefined without git or outside a repository. */
export function currentGitCommit(): string | undefined {
  const out = safe(() =>
    new Deno.Command("git", { args: ["rev-parse", "HEAD"], stdout: "piped", stderr: "null" }).outputSync()
  );
  if (!out?.success) return undefined;
  const commit = new TextDecoder().decode(out.stdout).trim();
  return /^[0-9a-f]{40,64}$/.test(commit) ? commit : undefined;
}

function safe<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

function cpuModel(): string {
  const text = safe(() => Deno.readTextFileSync("/proc/cpuinfo"));
  const line = text?.split("\n").find((l) => l.startsWith("model name"));
  return line?.split(":")[1]?.trim() ?? "unknown";
}
