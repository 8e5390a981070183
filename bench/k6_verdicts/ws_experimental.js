// args: -i 2
// k6/experimental/websockets: the browser-like WebSocket API, an echo awaited per iteration.
import { WebSocket } from "k6/experimental/websockets";
import { check } from "k6";

const WS = __ENV.WS_URL || "ws://127.0.0.1:18481/echo";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const socket = new WebSocket(WS);
  socket.onopen = () => socket.send("ping");
  socket.onmessage = (e) => {
    check(e, { "echo is ping": (m) => m.data === "ping" });
    socket.close();
  };
}
