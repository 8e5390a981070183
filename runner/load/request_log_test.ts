import assert from "node:assert/strict";
import { requestLogError, requestLogPath } from "./request_log.ts";

Deno.test("requestLogPath: one CSV per run under requests/, the run name made a file name", () => {
  assert.equal(requestLogPath("out/x", "express/json#2"), "out/x/requests/express_json_2.csv");
  assert.equal(requestLogPath("o", "a/b/query.ms=5"), "o/requests/a_b_query.ms=5.csv");
  // Names that clean alike, or that are long, keep a hash of the name: one log each, within 255 bytes.
  const names = [
    "a_b/once",
    "a/b_once",
    "a/b/query.x=x y",
    "a/b/query.x=x/y",
    `a/b/query.x=${"v".repeat(300)}`,
  ];
  // A filesystem that ignores case (macOS, Windows) would make these one file without the hash.
  names.push("a/b/query.q=A", "a/b/query.q=a", "App/once", "app/once");
  const paths = names.map((name) => requestLogPath("o", name));
  assert.equal(new Set(paths.map((p) => p.toLowerCase())).size, names.length, paths.join("\n"));
  for (const path of paths) assert.match(path, /^o\/requests\/[A-Za-z0-9.=_-]{1,120}\.csv$/);
});

Deno.test("requestLogError: a log write failing in a worker or at open names the log and the OS error; others are not", () => {
  const full = "No space left on device (os error 28)";
  const inWorker = new Error(`load worker 0 failed: request log: Error: ${full}`);
  assert.equal(
    requestLogError(inWorker, "o/l.csv")?.message,
    `cannot write o/l.csv: ${full}; free space on that disk, or write elsewhere`,
  );
  const atOpen = new Error(`${full}: open 'o/l.csv'`);
  assert.equal(
    requestLogError(atOpen, "o/l.csv")?.message,
    `cannot write o/l.csv: ${full}; free space on that disk, or write elsewhere`,
  );
  assert.equal(requestLogError(new Error(`${full}: open 'elsewhere.csv'`), "o/l.csv"), null);
  assert.equal(requestLogError(new Error("load worker 0 failed: boom"), "o/l.csv"), null);
});
