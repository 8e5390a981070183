// args: -u 2 -i 4
// k6/ws with the rest of a socket's life: ping and pong, a binary echo, the close handler, tags and the
// ws_connecting, ws_msgs_sent and ws_ping thresholds.
import ws from "k6/ws";
import { check } from "k6";

const WS = __ENV.WS_URL || "ws://127.0.0.1:18481/chat";

export const options = {
  thresholds: {
    ws_connecting: ["p(95)<2000"],
    "ws_msgs_sent{room:blue}": ["count==8"],
    ws_ping: ["max<2000"],
    "checks{check:closed}": ["rate==1"],
  },
};

export default function () {
  let pongs = 0, binary = 0, closed = false;
  const res = ws.connect(WS, { tags: { room: "blue" } }, (socket) => {
    socket.on("open", () => {
      socket.ping();
      socket.sendBinary(new Uint8Array([1, 2, 3]).buffer);
      socket.send(JSON.stringify({ hello: __VU }));
    });
    socket.on("pong", () => pongs++);
    socket.on("binaryMessage", (data) => (binary = data.byteLength));
    socket.on("message", (text) => {
      if (JSON.parse(text).hello === __VU) socket.close();
    });
    socket.on("close", () => (closed = true));
    socket.setTimeout(() => socket.close(), 2000);
  });
  check(res, { "upgraded": (r) => r && r.status === 101 });
  check(closed, { "closed": (c) => c === true });
  check(pongs, { "pong came back": (n) => n >= 1 });
  check(binary, { "binary echoed": (n) => n === 3 });
}
