/**
 * @module
 * `loadlab ARGS` as main.ts's `main()` in the test's own process, for cases that check a message and an exit
 * code: no `deno` start-up each (about 0.4 s of CPU). One call at a time, its console caught: what it prints
 * with console.error/warn is its stderr, with console.log/info/debug its stdout. Import this module before
 * any other of loadlab's, so a module that binds a console method binds the catcher. The command line
 * itself (argv, exit codes of a process, `ulimit`, signals) stays with `runLoadlab`'s child processes.
 */

/** Where the console prints while a call runs; null: as ever. */
let caught: { stdout: string[]; stderr: string[] } | null = null;
for (const method of ["error", "warn", "log", "info", "debug"] as const) {
  const print = console[method].bind(console);
  const stream = method === "error" || method === "warn" ? "stderr" : "stdout";
  console[method] = (...args: unknown[]) =>
    caught ? caught[stream].push(args.map(String).join(" ") + "\n") : print(...args);
}
// A call's output is caught as a child's piped output is, so it is no terminal's either (no live line).
for (const stdio of [Deno.stdout, Deno.stderr]) {
  const isTerminal = stdio.isTerminal.bind(stdio);
  stdio.isTerminal = () => caught === null && isTerminal();
}

let last: Promise<unknown> = Promise.resolve();

/**
 * The commands main() starts a load isolate for before it calls them (to load beside their planning), by
 * their entry points: an input they reject never takes it, and starting one costs about 165 ms of CPU.
 */
const EARLY_ISOLATE_COMMANDS: Record<string, () => Promise<(argv: string[]) => Promise<number>>> = {
  attack: async () => (await import("../cli/attack/command.ts")).runAttackCommand,
  ghz: async () => (await import("../cli/ghz/command.ts")).runGhzCommand,
  run: async () => (await import("../cli/run/command.ts")).runRunCommand,
};

/**
 * `loadlab args` in this process: its exit code and what it printed (a throw: code 1, said on stderr).
 * `rejected`: the input is to be rejected before any load, so the command is called as main() calls it,
 * without the load isolate main() starts early.
 */
export function loadlabInProcess(
  args: string[],
  { rejected = false } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const call = last.then(() => callMain(args, rejected));
  last = call.catch(() => {});
  return call;
}

async function callMain(
  args: string[],
  rejected: boolean,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { main } = await import("../main.ts");
  const command = rejected ? await EARLY_ISOLATE_COMMANDS[args[0]]?.() : undefined;
  const { takeEarlyWorker } = await import("../runner/worker/load_worker.ts");
  const out: { stdout: string[]; stderr: string[] } = caught = { stdout: [], stderr: [] };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let code = 1;
  try {
    // A call that never ends fails instead of holding the file.
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("main() did not return in 300 s")), 300_000);
    });
    code = await Promise.race([command ? command(args.slice(1)) : main(args), late]);
  } catch (err) {
    out.stderr.push(`uncaught: ${err}\n`);
  } finally {
    caught = null;
    clearTimeout(timer);
    // An early load isolate a bad flag left untaken: no limits match, so it ends.
    takeEarlyWorker(-1, -1);
  }
  return { code, stdout: out.stdout.join(""), stderr: out.stderr.join("") };
}
