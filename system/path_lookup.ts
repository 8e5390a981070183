/**
 * @module
 * PATH lookup (executables only, as a shell), a file's status or text (or null), a program's `--version`.
 */

/** `stat(path)` (Deno.statSync, or Deno.lstatSync for the link itself), or null when it fails. */
export function statOrNull(path: string | URL, stat: (path: string | URL) => Deno.FileInfo = Deno.statSync) {
  try {
    return stat(path);
  } catch {
    return null;
  }
}

/** The text of a file, or null when it cannot be read (a kernel file off Linux, a process gone). */
export function readTextOrNull(path: string): string | null {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return null;
  }
}

/** Absolute path of the executable `name` on PATH, or null; a name with a `/` is checked as a path. */
export function findProgram(name: string, searchPath = Deno.env.get("PATH") ?? ""): string | null {
  if (name.includes("/")) return isExecutable(name) ? name : null;
  for (const dir of searchPath.split(":")) {
    // An empty entry means the current directory to a shell: never look there.
    if (dir && isExecutable(`${dir}/${name}`)) return `${dir}/${name}`;
  }
  return null;
}

export function isExecutable(path: string): boolean {
  const info = statOrNull(path);
  return info !== null && info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0;
}

/** True when `command` names an executable file: on PATH when it has no slash, else relative to `cwd`. */
export function findExecutable(command: string, cwd?: string): boolean {
  if (!command.includes("/")) return findProgram(command) !== null;
  return isExecutable(command.startsWith("/") || !cwd ? command : `${cwd}/${command}`);
}

/** The trimmed stdout of `program args`, run to its end without a shell; null when it fails or cannot run. */
export function programOutput(program: string, args: string[]): string | null {
  try {
    const out = new Deno.Command(program, { args, stdout: "piped", stderr: "null" }).outputSync();
    return out.success ? new TextDecoder().decode(out.stdout).trim() : null;
  } catch {
    return null;
  }
}
