// args: -u 1 -i 2
// k6/net/grpc: a connect to a port nobody listens on, caught, checked and counted; plain HTTP beside it.
import http from "k6/http";
import grpc from "k6/net/grpc";
import { check } from "k6";
import { Counter } from "k6/metrics";

const client = new grpc.Client();
client.load(["../../examples/grpc"], "greeter.proto");
const refused = new Counter("grpc_refused");

export const options = { thresholds: { grpc_refused: ["count==2"], checks: ["rate==1"] } };

export default function () {
  let connected = true;
  try {
    client.connect("127.0.0.1:1", { plaintext: true, timeout: "2s" });
  } catch {
    connected = false;
    refused.add(1);
  }
  check(http.get("http://127.0.0.1:18481/get"), { "not connected": () => !connected });
}
