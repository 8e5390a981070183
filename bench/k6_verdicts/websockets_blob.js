// args: -i 2
// k6/websockets: a binary echo as a Blob (the default binaryType) sent back as it came, its text read; a
// Blob the script makes, read (k6 v1.8.1 refuses to send one: `unsupported send type`).
import { Blob, WebSocket } from "k6/websockets";
import { check } from "k6";

const WS = __ENV.WS_URL || "ws://127.0.0.1:18481/echo";

export const options = {
  thresholds: { ws_msgs_received: ["count==4"], ws_msgs_sent: ["count==6"], checks: ["rate==1"] },
};

export default function () {
  const socket = new WebSocket(WS);
  const sizes = [];
  socket.onopen = () => socket.send(new Uint8Array([107, 54, 32, 54, 33]));
  socket.onmessage = async (e) => {
    sizes.push(e.data.size);
    if (sizes.length === 1) return socket.send(e.data);
    const made = new Blob(["k6 ", new Uint8Array([54, 33])], { type: "text/plain" });
    const [echoed, own] = [await e.data.text(), await made.text()];
    check(echoed, {
      "the Blob echoed twice": (t) => t === "k6 6!" && sizes.join() === "5,5",
      "a Blob made of parts": () => own === echoed && made.size === 5 && made.type === "text/plain",
    });
    socket.close();
  };
}
