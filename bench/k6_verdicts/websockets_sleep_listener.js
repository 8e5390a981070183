// args: -i 2
// k6/websockets: a message listener that sleeps holds the VU; the other echoes wait for it, in order.
import { WebSocket } from "k6/websockets";
import { check, sleep } from "k6";

const WS = __ENV.WS_URL || "ws://127.0.0.1:18481/echo";

export const options = {
  thresholds: {
    ws_msgs_received: ["count==6"],
    // Three messages and a close each.
    ws_msgs_sent: ["count==8"],
    ws_session_duration: ["min>=600"],
    checks: ["rate==1"],
  },
};

export default function () {
  const socket = new WebSocket(WS);
  const seen = [];
  socket.onopen = () => ["one", "two", "three"].forEach((m) => socket.send(m));
  socket.onmessage = (e) => {
    const startMs = Date.now();
    sleep(0.2);
    seen.push([e.data, Date.now() - startMs]);
    if (seen.length === 3) socket.close();
  };
  socket.onclose = () =>
    check(seen, {
      "in order, each after its sleep": (s) =>
        s.map((x) => x[0]).join() === "one,two,three" && s.every((x) => x[1] >= 190),
    });
}
