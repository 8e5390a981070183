/**
 * @module
 * Process groups for loadlab's children, so a wrapper's grandchildren (`npm start`, `sh -c`) stop too;
 * a watchdog shell SIGKILLs every live group when loadlab dies, `kill -9` included.
 */
import { findProgram } from "../system/path_lookup.ts";
import { readProcStat } from "../system/proc_stat.ts";

let setsid: string | null | undefined;
let setpriv: string | null | undefined;

/** `setsid` when children can get a session (and so a process group) of their own, looked up once. */
function sessionWrapper(): string | null {
  setsid ??= Deno.build.os === "linux" ? findProgram("setsid") : null;
  return setsid;
}

/** `command args` under `setpriv --pdeathsig KILL` and `setsid` where installed; both exec in place. */
export function inGroupOfItsOwn(command: string, args: string[]) {
  const session = sessionWrapper();
  if (session) [command, args] = [session, [command, ...args]];
  setpriv ??= Deno.build.os === "linux" ? findProgram("setpriv") : null;
  if (setpriv) [command, args] = [setpriv, ["--pdeathsig", "KILL", "--", command, ...args]];
  return { command, args, grouped: session !== null };
}

/** Sends `signal` to every process of group `pgid`; false when there is no such group. */
export function signalGroup(pgid: number, signal: Deno.Signal): boolean {
  try {
    Deno.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** True while a live (not zombie) process belongs to group `pgid`, by a scan of /proc. */
export function groupAlive(pgid: number): boolean {
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const stat = readProcStat(Number(entry.name)); // null: gone meanwhile
    if (stat !== null && stat.state !== "Z" && stat.pgrp === pgid) return true;
  }
  return false;
}

/** When `pid` started (clock ticks since boot), or null when it is not running. */
export function processStartTicks(pid: number): number | null {
  const stat = readProcStat(pid);
  return stat === null || stat.state === "Z" ? null : stat.startTicks;
}

/** Lines `+<pgid>` add a group, `-<pgid>` drop it; at end of input every listed group is SIGKILLed. */
const WATCHDOG_SCRIPT = `trap '' HUP INT QUIT TERM PIPE
groups=" "
while IFS= read -r line; do
  id=\${line#?}
  case "$line" in
    +*) groups="$groups$id " ;;
    -*) case "$groups" in *" $id "*) groups="\${groups%% $id *} \${groups#* $id }" ;; esac ;;
  esac
done
for id in $groups; do kill -9 -$id 2>/dev/null; done
`;

let watchdog: ReturnType<typeof startWatchdog> | undefined;
const watched = new Set<number>();

function startWatchdog(env: Record<string, string>) {
  const wrapper = sessionWrapper();
  if (!wrapper) return null;
  try {
    const child = new Deno.Command(wrapper, {
      args: ["sh", "-c", WATCHDOG_SCRIPT],
      env,
      stdin: "piped",
      stdout: "null",
      stderr: "null",
    }).spawn();
    child.unref();
    return { child, writer: child.stdin.getWriter() };
  } catch {
    return null; // no sh: the group leaders keep their parent-death signal, the rest is best effort
  }
}

function tell(line: string): void {
  watchdog?.writer.write(new TextEncoder().encode(line + "\n")).catch(() => {});
}

/** Puts group `pgid` under the watchdog (started on first use, with `env` marking it like the children). */
export function watchGroup(pgid: number, env: Record<string, string>): void {
  watchdog ??= startWatchdog(env);
  watched.add(pgid);
  tell(`+${pgid}`);
}

/** The group is gone: the watchdog must not signal its number again. */
export function unwatchGroup(pgid: number): void {
  if (watched.delete(pgid)) tell(`-${pgid}`);
}

/** On loadlab's exit: SIGKILL every group still listed, then the watchdog. */
export function killWatchedGroupsNow(): void {
  for (const pgid of watched) if (groupAlive(pgid)) signalGroup(pgid, "SIGKILL");
  watched.clear();
  try {
    watchdog?.child.kill("SIGKILL");
  } catch { /* gone already */ }
}
