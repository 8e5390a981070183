/**
 * @module
 * What this machine is, as a results file records it; a field that cannot be read is left unknown.
 */

interface HostInfo {
  os: string;
  arch: string;
  cpu: string;
  cores: number;
  hostname?: string;
}

export function hostInfo(): HostInfo {
  return {
    os: `${Deno.build.os} ${safe(() => Deno.osRelease()) ?? ""}`.trim(),
    arch: Deno.build.arch,
    cpu: cpuModel(),
    cores: navigator.hardwareConcurrency,
    hostname: safe(() => Deno.hostname()),
  };
}

/** The commit checked out in the working directory (spawns `git`); undefined without one. */
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
