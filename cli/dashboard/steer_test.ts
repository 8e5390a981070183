/**
 * The dashboard tells every page when a run's load starts and ends, not only when it is steered: a page
 * that opened (and fetched the steering's state) before the load started once stayed on "no load is running
 * now" for the whole run, its controls refused, whenever the workers took longer to start than the page to
 * load. Read from the real server's event stream.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { Dashboard } from "./server.ts";
import { RunSteering } from "../../runner/steering.ts";
import { parseAttackConfig } from "../../runner/config.ts";

/**
 * The `steer` events' `running` flags read from a stream, in order, until `count` of them came; a stream
 * silent for 5 s is cancelled, so a missing event fails the assertion instead of hanging the test.
 */
async function steerStates(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  count: number,
): Promise<boolean[]> {
  const decoder = new TextDecoder();
  const states: boolean[] = [];
  let text = "";
  const timer = setTimeout(() => reader.cancel(), 5_000);
  while (states.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    let end;
    while ((end = text.indexOf("\n\n")) >= 0) {
      const frame = text.slice(0, end);
      text = text.slice(end + 2);
      const [, event, data] = /^event: (\S+)\ndata: (.*)$/s.exec(frame) ?? [];
      if (event === "steer") states.push(JSON.parse(data).state.running);
    }
  }
  clearTimeout(timer);
  return states;
}

Deno.test("dashboard: a page open before the load starts hears it start and end; one opening later gets the state", async () => {
  const steering = new RunSteering();
  const dashboard = Dashboard.start({
    host: "127.0.0.1",
    port: 0,
    open: false,
    steering,
    title: "attack",
    command: "attack",
  });
  const events = dashboard.url.replace(/\?.*$/, "") + "events";
  const early = await fetch(events);
  const earlyReader = early.body!.getReader();
  try {
    // Connected before any run: the state it is given says no load runs.
    assertEquals(await steerStates(earlyReader, 1), [false]);
    steering.begin(
      "attack",
      parseAttackConfig({
        url: "http://127.0.0.1:1/",
        model: "rate",
        phases: [{ durationMs: 1000, ratePerSec: 10 }],
      }),
    );
    dashboard.runStarted("attack", 0, 1, 1000);
    steering.started(Date.now(), () => {});
    assertEquals(await steerStates(earlyReader, 1), [true], "the start reaches a page already open");
    const late = await fetch(events);
    const lateReader = late.body!.getReader();
    try {
      assertEquals(await steerStates(lateReader, 1), [true], "a page opening mid-run gets the state");
    } finally {
      await lateReader.cancel();
    }
    steering.end();
    assertEquals(await steerStates(earlyReader, 1), [false], "and the end");
  } finally {
    await earlyReader.cancel();
    await dashboard.finish(undefined, 0);
  }
});
