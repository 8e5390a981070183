/**
 * What a converted k6 script runs per iteration, checked when it loads (so before any load): a script with
 * no default function runs only scenarios that name theirs with `exec`; a default export that is not a
 * function is none, and a script exporting no function does not load (k6's "no exported functions").
 */
import { ok, throws } from "node:assert/strict";
import { session } from "./runtime.ts";

const fn = () => {};

Deno.test("no default function and no scenario exec, or a default that is no function: refused at load", () => {
  throws(() => session({ main: undefined, exports: {} }), /no exported functions in script/);
  throws(
    () => session({ main: undefined, exports: { setup: fn } }),
    /no default function to run per iteration/,
  );
  throws(
    () =>
      session({
        main: undefined,
        exports: { f: fn, options: { scenarios: { a: { executor: "constant-vus" } } } },
      }),
    /options\.scenarios\.a: no exec and no default function/,
  );
  const data = { a: 1 } as unknown as () => unknown;
  throws(() => session({ main: data, exports: {} }), /no exported functions in script/);
  throws(() => session({ main: data, exports: { setup: fn } }), /no default function to run per iteration/);
  ok(session({ main: data, exports: { f: fn, options: { scenarios: { a: { exec: "f" } } } } }));
  // A null scenario is the options check's to name; loading does not crash on it.
  throws(
    () => session({ main: undefined, exports: { f: fn, options: { scenarios: { a: null } } } }),
    /scenarios\.a: no exec/,
  );
  ok(session({ main: fn, exports: {} }));
  ok(session({ main: undefined, exports: { f: fn, options: { scenarios: { a: { exec: "f" } } } } }));
});

Deno.test("a scenario exec naming what every object inherits (toString, constructor) is no exported function", () => {
  // It ran Object.prototype's own function each iteration: nothing sent, no error, the run only 'nothing
  // measured'.
  for (const exec of ["toString", "constructor", "hasOwnProperty"]) {
    throws(
      () => session({ main: fn, exports: { options: { scenarios: { a: { exec } } } } }),
      new RegExp(`options\\.scenarios\\.a\\.exec: no exported function ${exec}`),
    );
  }
});
