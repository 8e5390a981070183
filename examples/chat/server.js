/**
 * @module
 * The chat-capacity study's room on Node (docs/studies/chat-capacity.md): the built-in target's
 * `/ws/room?room=NAME` and `/ws/echo` on node:http with the `ws` package, the WebSocket server most Node
 * apps use, so the study compares one Deno process with one Node process doing the same work. Every text
 * message goes to every member of the room as JSON `{"room","from","self","sentAt","data"}`, `sentAt` the
 * process's clock (epoch ms) as it broadcast and `self` true only in the sender's copy, written as the
 * built-in target writes it (targets/app/ws_endpoints.ts): two strings per message, one send per member.
 * `/json` answers loadlab's readiness probe. `PORT`, `HOST` from the environment.
 */
import http from "node:http";
import { WebSocketServer } from "ws";
import { HOST, PORT, stopOnSignal } from "../shared.js";

const rooms = new Map();
let nextId = 0;

const server = http.createServer((req, res) => {
  if (req.url !== "/json") {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify({ message: "Hello, World!" }));
});

// No permessage-deflate: loadlab's client does not offer it, and compressing every copy would be another study.
const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });

function echo(socket) {
  socket.on("message", (data, isBinary) => socket.send(data, { binary: isBinary }));
}

function join(socket, name) {
  const id = nextId++;
  let members = rooms.get(name);
  if (members === undefined) rooms.set(name, members = new Set());
  members.add(socket);
  socket.on("message", (data, isBinary) => {
    const sentAt = performance.timeOrigin + performance.now();
    const text = isBinary ? "" : data.toString();
    const others = JSON.stringify({ room: name, from: id, self: false, sentAt, data: text });
    const own = JSON.stringify({ room: name, from: id, self: true, sentAt, data: text });
    for (const member of members) {
      if (member.readyState === member.OPEN) member.send(member === socket ? own : others);
    }
  });
  socket.on("close", () => {
    members.delete(socket);
    if (members.size === 0 && rooms.get(name) === members) rooms.delete(name);
  });
}

server.on("upgrade", (req, socket, head) => {
  const url = new URL(req.url, "http://localhost");
  if (url.pathname !== "/ws/room" && url.pathname !== "/ws/echo") {
    socket.end("HTTP/1.1 404 Not Found\r\nconnection: close\r\n\r\n");
    return;
  }
  wss.handleUpgrade(req, socket, head, (ws) => {
    if (url.pathname === "/ws/echo") echo(ws);
    else join(ws, url.searchParams.get("room") || "main");
  });
});

server.listen(PORT, HOST);
stopOnSignal(async () => {
  for (const client of wss.clients) client.terminate();
  await new Promise((resolve) => server.close(resolve));
});
