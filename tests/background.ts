/**
 * @module
 * A loadlab process in the background for the end-to-end tests of what it serves (`--dashboard`,
 * `loadlab site`): started with `deno run -A main.ts`, its output read as it comes until the URL line
 * appears, the rest collected for the test to look at once the process ends.
 */

const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** A running loadlab: the URL it printed, and its exit with everything it wrote. */
export interface Background {
  url: string;
  child: Deno.ChildProcess;
  /** Resolves when the process ends: its exit code, stdout and stderr (both whole). */
  done: Promise<{ code: number; stdout: string; stderr: string }>;
}

/** Starts `loadlab <args>` and waits (up to `timeoutMs`) for `pattern`'s first group on stdout or stderr. */
export async function startLoadlab(args: string[], pattern: RegExp, timeoutMs = 30_000): Promise<Background> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  const text = { stdout: "", stderr: "" };
  let found: (url: string) => void;
  const url = new Promise<string>((resolve) => found = resolve);
  const collect = async (stream: ReadableStream<Uint8Array>, key: "stdout" | "stderr") => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      text[key] += decoder.decode(chunk, { stream: true });
      const m = pattern.exec(text[key]);
      if (m) found(m[1]);
    }
  };
  const streams = Promise.all([collect(child.stdout, "stdout"), collect(child.stderr, "stderr")]);
  const done = Promise.all([child.status, streams]).then(([status]) => ({ code: status.code, ...text }));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) =>
    timer = setTimeout(
      () => reject(new Error(`no ${pattern} within ${timeoutMs} ms: ${JSON.stringify(text)}`)),
      timeoutMs,
    )
  );
  const exited = done.then((d) => {
    throw new Error(`loadlab exited (${d.code}) before printing ${pattern}: ${d.stderr}${d.stdout}`);
  });
  exited.catch(() => {}); // after the URL, the end of the process is `done`'s business
  try {
    return { url: await Promise.race([url, late, exited]), child, done };
  } catch (err) {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
    await done;
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A dashboard's `/events` stream as text, read until its `end` event (or until the server closes it),
 * and the process's exit, awaited whatever the read did.
 */
export async function readDashboard(
  bg: Background,
): Promise<{ stream: string; code: number; stdout: string; stderr: string }> {
  let stream = "";
  try {
    const res = await fetch(new URL("events", bg.url));
    const decoder = new TextDecoder();
    for await (const chunk of res.body!) {
      stream += decoder.decode(chunk, { stream: true });
      if (stream.includes("event: end")) break;
    }
    await res.body?.cancel().catch(() => {});
  } finally {
    await bg.done;
  }
  return { stream, ...await bg.done };
}
