/**
 * @module
 * Entry module of the WebSocket warm-up sink's isolate (warmup_sink.ts): a loopback echo on
 * `Deno.upgradeWebSocket` that posts its port once listening. Its own thread, as a WebSocket run's epoll
 * and io_uring pumps block theirs between completions: a sink on that loop would never answer.
 */
/// <reference lib="deno.worker" />

const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
  const { socket, response } = Deno.upgradeWebSocket(request);
  socket.binaryType = "arraybuffer";
  socket.onmessage = (event) => socket.send(event.data);
  return response;
});
self.postMessage({ port: server.addr.port });
