/**
 * @module
 * Entry module of the WebSocket warm-up sink's isolate: a loopback echo that posts its port once listening,
 * on its own thread since a WebSocket run's epoll and io_uring pumps block theirs between completions.
 */
/// <reference lib="deno.worker" />

const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
  const { socket, response } = Deno.upgradeWebSocket(request);
  socket.binaryType = "arraybuffer";
  socket.onmessage = (event) => socket.send(event.data);
  return response;
});
self.postMessage({ port: server.addr.port });
