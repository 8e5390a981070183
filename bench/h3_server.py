"""A tiny HTTP/3 server on aioquic's library API for bench/h3_probe.ts: every request, whatever its
method and path, is answered 200 with a fixed body of --body-bytes octets. Prints "listening <port>"
when ready. Usage: h3_server.py --cert C --key K [--host 127.0.0.1] [--port 0] [--body-bytes 13]"""
import argparse
import asyncio

from aioquic.asyncio import QuicConnectionProtocol, serve
from aioquic.h3.connection import H3_ALPN, H3Connection
from aioquic.h3.events import HeadersReceived
from aioquic.quic.configuration import QuicConfiguration
from aioquic.quic.events import ProtocolNegotiated


class Answer(QuicConnectionProtocol):
    """One QUIC connection: an H3Connection once ALPN says h3, answering each request's HEADERS."""

    body = b""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.h3 = None
        self.head = [(b":status", b"200"), (b"content-length", str(len(self.body)).encode())]

    def quic_event_received(self, event):
        if isinstance(event, ProtocolNegotiated) and event.alpn_protocol in H3_ALPN:
            self.h3 = H3Connection(self._quic)
        if self.h3 is None:
            return
        for h3_event in self.h3.handle_event(event):
            if isinstance(h3_event, HeadersReceived) and h3_event.stream_ended:
                self.h3.send_headers(h3_event.stream_id, self.head)
                self.h3.send_data(h3_event.stream_id, self.body, end_stream=True)
        self.transmit()


async def main(args):
    config = QuicConfiguration(alpn_protocols=H3_ALPN, is_client=False)
    config.load_cert_chain(args.cert, args.key)
    Answer.body = b"x" * args.body_bytes
    server = await serve(args.host, args.port, configuration=config, create_protocol=Answer)
    print("listening", server._transport.get_extra_info("sockname")[1], flush=True)
    await asyncio.Future()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--body-bytes", type=int, default=13)
    try:
        asyncio.run(main(parser.parse_args()))
    except KeyboardInterrupt:
        pass
