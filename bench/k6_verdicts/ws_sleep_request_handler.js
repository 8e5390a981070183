// args: -i 2
// k6/ws: handlers that sleep and send a request; the connect callback sleeps before its handlers.
import ws from "k6/ws";
import http from "k6/http";
import { check, sleep } from "k6";

const WS = __ENV.WS_URL || "ws://127.0.0.1:18481/echo";

export const options = {
  thresholds: {
    http_reqs: ["count==4"],
    ws_msgs_received: ["count==4"],
    ws_msgs_sent: ["count==4"],
    checks: ["rate==1"],
  },
};

export default function () {
  const got = [];
  ws.connect(WS, (socket) => {
    sleep(0.1);
    socket.on("open", () => {
      socket.send("a");
      socket.send("b");
    });
    socket.on("message", (data) => {
      const res = http.get("http://127.0.0.1:18481/get");
      sleep(0.1);
      got.push(`${data}${res.status}`);
      if (got.length === 2) socket.close();
    });
  });
  check(got, { "each echo after the request before it": (g) => g.join() === "a200,b200" });
}
