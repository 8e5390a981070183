/**
 * Truth table, every TLS handshake refused by the client: an HTTPS target whose certificate no trusted
 * CA signed, attacked without --cacert or -k. Not one response is `failed` whatever the error kind:
 * exit 4 in `attack` and in `run`, alone or beside a healthy target, never a green `ok`.
 */
import { withTlsTarget } from "../tls_fixtures.ts";
import { assertAttack, assertRun, type VerdictClass } from "./truth_table.ts";

const tlsFailed = (port: number): VerdictClass => ({
  url: `https://127.0.0.1:${port}/`,
  label: /^failed: no response \(tls \d+\)$/,
  code: 4,
  strictCode: 4,
  noSamples: true,
});

Deno.test("TLS refused: attack says failed, exit 4 (also under --strict), '-' for every latency cell", async () => {
  await withTlsTarget((port) => assertAttack(tlsFailed(port)));
});

Deno.test("TLS refused: run exits 4 with the target alone and beside a healthy one", async () => {
  await withTlsTarget((port) => assertRun(tlsFailed(port)));
});
