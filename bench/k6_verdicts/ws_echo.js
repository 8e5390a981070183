// args: -u 2 -i 4
// k6/ws: a socket that sends on open and every 100 ms, counts the echoes and closes itself after 500 ms.
import ws from "k6/ws";
import { check } from "k6";

const WS = __ENV.WS_URL || "ws://127.0.0.1:18481/echo";

export const options = {
  thresholds: {
    ws_session_duration: ["p(95)<3000"],
    ws_msgs_received: ["count>=16"],
    ws_sessions: ["count==4"],
    checks: ["rate==1"],
  },
};

export default function () {
  let echoes = 0;
  const res = ws.connect(WS, { tags: { room: "lobby" } }, (socket) => {
    socket.on("open", () => {
      socket.send("hello");
      socket.setInterval(() => socket.send(`tick ${echoes}`), 100);
      socket.setTimeout(() => socket.close(), 500);
    });
    socket.on("message", () => echoes++);
  });
  check(res, { "switched protocols": (r) => r && r.status === 101 });
  check(echoes, { "echoes came back": (n) => n >= 4 });
}
