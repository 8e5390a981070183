// Command grpc_greeter is the gRPC server loadlab's gRPC bench and conformance runs call: grpc-go serving
// helloworld.Greeter (examples/grpc/greeter.proto) without generated code. Its messages are encoded and
// decoded field by field with protowire by a codec registered under gRPC's "proto" name, so the module
// needs neither protoc nor a generated package. SayHello (unary), SayHellos (a server stream of `count`
// replies) and Fail (ends with status `code` and `message`) are served; the rest answer UNIMPLEMENTED.
// A call whose request came gzip-compressed is answered gzip-compressed (grpc-go answers with the
// compressor its client used, when registered). It listens on 127.0.0.1:$PORT (0: any free port) and
// prints "READY <port>".
package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/encoding"
	_ "google.golang.org/grpc/encoding/gzip" // gzip requests read, and answered gzip-compressed
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
)

// request is HelloRequest (name = 1, count = 2) or FailRequest (code = 1, message = 2): the fields are
// read by number, so one type serves both.
type request struct {
	text   string
	number int64
	code   int64
}

// reply is HelloReply (message = 1).
type reply struct{ message string }

type codec struct{}

func (codec) Name() string { return "proto" }

func (codec) Marshal(v any) ([]byte, error) {
	r, ok := v.(*reply)
	if !ok {
		return nil, fmt.Errorf("cannot encode %T", v)
	}
	if r.message == "" {
		return []byte{}, nil
	}
	b := protowire.AppendTag(nil, 1, protowire.BytesType)
	return protowire.AppendString(b, r.message), nil
}

func (codec) Unmarshal(data []byte, v any) error {
	r, ok := v.(*request)
	if !ok {
		return fmt.Errorf("cannot decode into %T", v)
	}
	for len(data) > 0 {
		num, typ, n := protowire.ConsumeTag(data)
		if n < 0 {
			return protowire.ParseError(n)
		}
		data = data[n:]
		switch {
		case typ == protowire.BytesType:
			s, m := protowire.ConsumeString(data)
			if m < 0 {
				return protowire.ParseError(m)
			}
			if num == 1 || num == 2 {
				r.text = s // HelloRequest.name or FailRequest.message
			}
			data = data[m:]
		case typ == protowire.VarintType:
			x, m := protowire.ConsumeVarint(data)
			if m < 0 {
				return protowire.ParseError(m)
			}
			if num == 1 {
				r.code = int64(x)
			} else if num == 2 {
				r.number = int64(int32(x))
			}
			data = data[m:]
		default:
			m := protowire.ConsumeFieldValue(num, typ, data)
			if m < 0 {
				return protowire.ParseError(m)
			}
			data = data[m:]
		}
	}
	return nil
}

func sayHello(_ any, ctx context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
	in := &request{}
	if err := dec(in); err != nil {
		return nil, err
	}
	return &reply{message: "Hello " + in.text}, nil
}

func fail(_ any, ctx context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
	in := &request{}
	if err := dec(in); err != nil {
		return nil, err
	}
	return nil, status.Error(codes.Code(in.code), in.text)
}

func sayHellos(_ any, stream grpc.ServerStream) error {
	in := &request{}
	if err := stream.RecvMsg(in); err != nil {
		return err
	}
	for k := int64(0); k < in.number; k++ {
		if err := stream.SendMsg(&reply{message: "Hello " + in.text + " " + strconv.FormatInt(k, 10)}); err != nil {
			return err
		}
	}
	return nil
}

var greeter = grpc.ServiceDesc{
	ServiceName: "helloworld.Greeter",
	HandlerType: (*any)(nil),
	Methods: []grpc.MethodDesc{
		{MethodName: "SayHello", Handler: sayHello},
		{MethodName: "Fail", Handler: fail},
	},
	Streams: []grpc.StreamDesc{{StreamName: "SayHellos", Handler: sayHellos, ServerStreams: true}},
}

func main() {
	encoding.RegisterCodec(codec{})
	port := os.Getenv("PORT")
	if port == "" {
		port = "0"
	}
	lis, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	server := grpc.NewServer()
	var impl any = struct{}{}
	server.RegisterService(&greeter, impl)
	go func() {
		stop := make(chan os.Signal, 1)
		signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
		<-stop
		server.Stop()
	}()
	fmt.Printf("READY %d\n", lis.Addr().(*net.TCPAddr).Port)
	if err := server.Serve(lis); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
