// args: -i 3
// k6/net/grpc beyond unary: a server stream read with grpc.Stream, metadata sent and echoed, a call by
// tags, the client closed; thresholds on grpc_streams and grpc_streams_msgs_received.
import grpc from "k6/net/grpc";
import { check } from "k6";

const ADDR = __ENV.GRPC_ADDR || "127.0.0.1:18483";
const client = new grpc.Client();
client.load(["../../examples/grpc"], "greeter.proto");

export const options = {
  thresholds: {
    grpc_streams: ["count==3"],
    grpc_streams_msgs_received: ["count==9"],
    "grpc_req_duration{call:meta}": ["max<3000"],
    checks: ["rate==1"],
  },
};

export default async () => {
  client.connect(ADDR, { plaintext: true });
  const meta = client.invoke("helloworld.Greeter/Metadata", {}, {
    metadata: { "x-team": "blue" },
    tags: { call: "meta" },
  });
  check(meta, { "metadata echoed": (r) => r && r.message.message.includes("x-team=blue") });
  const replies = [];
  await new Promise((resolve, reject) => {
    const stream = new grpc.Stream(client, "helloworld.Greeter/SayHellos");
    stream.on("data", (reply) => replies.push(reply.message));
    stream.on("error", reject);
    stream.on("end", resolve);
    stream.write({ name: "ann", count: 3 });
    stream.end();
  });
  check(replies, { "three replies": (r) => r.length === 3 && r[0].startsWith("Hello ann") });
  client.close();
};
