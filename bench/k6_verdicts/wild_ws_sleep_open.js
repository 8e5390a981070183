// args: -i 1
// Licence: MIT; its text: wild_licences/lingfromSh+message.LICENSE.
// From github.com/lingfromSh/message, tests/load/ws_connection.js: the team's script unchanged but for its
// one URL (ws://localhost:8000/websocket/); -i 1 bounds a run to one 60 s socket.
import { sleep } from "k6";
import { WebSocket } from "k6/experimental/websockets";

export default function () {
  const ws = new WebSocket("ws://127.0.0.1:18481/websocket/");

  ws.onopen = () => {
    // console.log("WebSocket connection established!");
    sleep(60);
    ws.close();
  };
}
