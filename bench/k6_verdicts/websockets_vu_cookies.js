// args: -i 2
// k6/websockets and k6/ws: the VU's cookie jar (no jar param) goes with each handshake, as k6 sends it.
import { WebSocket } from "k6/websockets";
import ws from "k6/ws";
import http from "k6/http";
import { check } from "k6";

const HOST = __ENV.HOST || "127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"], "checks{module:ws}": ["rate==1"] } };

export default function () {
  http.cookieJar().set(`http://${HOST}/`, "session", `vu${__VU}`);
  const socket = new WebSocket(`ws://${HOST}/cookies`);
  socket.onmessage = (e) => {
    check(e.data, { "the VU's cookie (websockets)": (d) => d === `session=vu${__VU}` });
    socket.close();
  };
  ws.connect(`ws://${HOST}/cookies`, (s) => {
    s.on("message", (d) => {
      check(d, { "the VU's cookie (ws)": (v) => v === `session=vu${__VU}` }, { module: "ws" });
      s.close();
    });
  });
}
