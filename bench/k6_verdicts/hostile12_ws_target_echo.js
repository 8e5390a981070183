// args: -u 2 -i 4
// k6/ws against the built-in target's /ws/echo: tagged sessions, a JSON round trip, close from the client.
import ws from "k6/ws";
import { check } from "k6";

export const options = {
  thresholds: {
    "ws_sessions{channel:orders}": ["count==4"],
    "ws_msgs_received{channel:orders}": ["count==12"],
    checks: ["rate==1"],
  },
};

export default function () {
  const got = [];
  const res = ws.connect("ws://127.0.0.1:18482/ws/echo", { tags: { channel: "orders" } }, (socket) => {
    socket.on("open", () => {
      for (let i = 0; i < 3; i++) socket.send(JSON.stringify({ i, vu: __VU }));
    });
    socket.on("message", (m) => {
      got.push(JSON.parse(m));
      if (got.length === 3) socket.close();
    });
    socket.setTimeout(() => socket.close(), 3000);
  });
  check(res, { "101": (r) => r && r.status === 101 });
  check(got, { "three echoes in order": (g) => g.map((x) => x.i).join() === "0,1,2" });
}
