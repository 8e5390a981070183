// args: -u 2 -i 6
// k6/net/grpc: a greeter called over h2c from its .proto, a status the server fails with, and thresholds on
// grpc_req_duration by method name.
import grpc from "k6/net/grpc";
import { check } from "k6";

const ADDR = __ENV.GRPC_ADDR || "127.0.0.1:18483";
const client = new grpc.Client();
client.load(["../../examples/grpc"], "greeter.proto");

export const options = {
  thresholds: {
    grpc_req_duration: ["p(95)<3000"],
    "grpc_req_duration{name:helloworld.Greeter/SayHello}": ["max<3000"],
    checks: ["rate==1"],
  },
};

export default () => {
  if (__ITER === 0) client.connect(ADDR, { plaintext: true });
  const hello = client.invoke("helloworld.Greeter/SayHello", { name: `vu${__VU}` });
  check(hello, {
    "status OK": (r) => r && r.status === grpc.StatusOK,
    "greeted by name": (r) => r && r.message.message === `Hello vu${__VU}`,
  });
  const fail = client.invoke("helloworld.Greeter/Fail", { code: 5, message: "no such user" });
  check(fail, {
    "not found": (r) => r && r.status === grpc.StatusNotFound,
    "error message": (r) => r && r.error && r.error.message === "no such user",
  });
  const slow = client.invoke("helloworld.Greeter/Sleep", { ms: 300 }, { timeout: "50ms" });
  check(slow, { "deadline exceeded": (r) => r && r.status === grpc.StatusDeadlineExceeded });
};
