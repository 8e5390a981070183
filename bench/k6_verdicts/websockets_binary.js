// args: -i 3
// k6/websockets: a binary message as an ArrayBuffer and as a typed array, the timer of k6/timers closing.
import { WebSocket } from "k6/experimental/websockets";
import { setTimeout } from "k6/timers";
import { check } from "k6";

const WS = __ENV.WS_URL || "ws://127.0.0.1:18481/binary";

export const options = { thresholds: { ws_msgs_sent: ["count==9"], checks: ["rate==1"] } };

export default function () {
  const socket = new WebSocket(WS);
  socket.binaryType = "arraybuffer";
  const sizes = [];
  socket.onopen = () => {
    socket.send(new Uint8Array([1, 2, 3, 4]).buffer);
    socket.send(new Uint8Array(16));
    setTimeout(() => socket.close(), 300);
  };
  socket.onmessage = (e) => sizes.push(e.data.byteLength);
  socket.onclose = () => check(sizes, { "both echoed as bytes": (s) => s.join() === "4,16" });
}
