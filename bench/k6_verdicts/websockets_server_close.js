// args: -i 2
// k6/websockets: the server closes the socket (code 4000 after "bye"): an error event, then the close.
import { WebSocket } from "k6/websockets";
import { check } from "k6";

const WS = __ENV.WS_URL || "ws://127.0.0.1:18481/close";

export const options = { thresholds: { checks: ["rate==1"], ws_session_duration: ["max<5000"] } };

export default function () {
  const socket = new WebSocket(WS);
  let errors = 0;
  socket.onopen = () => socket.send("bye");
  socket.onerror = () => errors++;
  socket.onclose = (e) =>
    check(e, { "closed by the server with 4000": (ev) => ev.code === 4000 && errors === 1 });
}
