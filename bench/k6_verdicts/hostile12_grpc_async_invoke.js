// args: -u 1 -i 3
// k6/net/grpc's asyncInvoke, two calls awaited together, connected once per VU in an async default.
import grpc from "k6/net/grpc";
import { check } from "k6";

const client = new grpc.Client();
client.load(["../../examples/grpc"], "greeter.proto");
let connected = false;

export const options = {
  thresholds: {
    "grpc_req_duration{name:helloworld.Greeter/SayHello}": ["max<5000"],
    checks: ["rate==1"],
  },
};

export default async function () {
  if (!connected) {
    client.connect(__ENV.GRPC_ADDR || "127.0.0.1:18483", { plaintext: true });
    connected = true;
  }
  const [a, b] = await Promise.all([
    client.asyncInvoke("helloworld.Greeter/SayHello", { name: "a" }),
    client.asyncInvoke("helloworld.Greeter/SayHello", { name: "b" }, { metadata: { "x-team": "perf" } }),
  ]);
  check(a, { "a greeted": (r) => r.status === grpc.StatusOK && r.message.message === "Hello a" });
  check(b, { "b greeted": (r) => r.status === grpc.StatusOK && r.message.message === "Hello b" });
}
