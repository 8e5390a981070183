//! A bench server for measuring only: one thread answers `GET` with a fixed 200 and 13 octets over h3
//! (quinn, h3) on UDP PORT and over h2 (hyper, rustls, ALPN h2) on TCP PORT, so both protocols meet one
//! server class on one core. Prints `listening PORT` once both are bound.
//!   h3_rust_server --cert CERT.pem --key KEY.pem [--port 0]
use std::{net::SocketAddr, sync::Arc};

use bytes::Bytes;
use http_body_util::Full;
use rustls::pki_types::{pem::PemObject, CertificateDer, PrivateKeyDer};

const BODY: &[u8] = b"hello, world\n";

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned())
}

fn tls_config(cert: &str, key: &str, alpn: &[u8]) -> rustls::ServerConfig {
    let certs: Vec<CertificateDer<'static>> =
        CertificateDer::pem_file_iter(cert).expect("--cert").map(|c| c.expect("--cert")).collect();
    let key = PrivateKeyDer::from_pem_file(key).expect("--key");
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .expect("the certificate and key");
    config.alpn_protocols = vec![alpn.to_vec()];
    config.max_early_data_size = u32::MAX;
    config
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let cert = arg(&args, "--cert").expect("--cert CERT.pem");
    let key = arg(&args, "--key").expect("--key KEY.pem");
    let port: u16 = arg(&args, "--port").map(|p| p.parse().expect("--port")).unwrap_or(0);

    let tcp = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], port))).await.unwrap();
    let addr = tcp.local_addr().unwrap();
    let quic_tls = quinn::crypto::rustls::QuicServerConfig::try_from(tls_config(&cert, &key, b"h3")).unwrap();
    let mut server = quinn::ServerConfig::with_crypto(Arc::new(quic_tls));
    let mut transport = quinn::TransportConfig::default();
    transport.max_concurrent_bidi_streams(1000u32.into());
    server.transport_config(Arc::new(transport));
    let endpoint = quinn::Endpoint::server(server, addr).unwrap();
    println!("listening {}", addr.port());

    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(tls_config(&cert, &key, b"h2")));
    let local = tokio::task::LocalSet::new();
    local.spawn_local(async move {
        loop {
            let Ok((sock, _)) = tcp.accept().await else { continue };
            let _ = sock.set_nodelay(true);
            let acceptor = acceptor.clone();
            tokio::task::spawn_local(async move {
                let Ok(tls) = acceptor.accept(sock).await else { return };
                let service = hyper::service::service_fn(|_req| async {
                    let response = http::Response::builder()
                        .header("content-length", BODY.len())
                        .body(Full::new(Bytes::from_static(BODY)))
                        .unwrap();
                    Ok::<_, std::convert::Infallible>(response)
                });
                let _ = hyper::server::conn::http2::Builder::new(hyper_util::rt::TokioExecutor::new())
                    .max_concurrent_streams(1000)
                    .serve_connection(hyper_util::rt::TokioIo::new(tls), service)
                    .await;
            });
        }
    });
    local.run_until(async move {
        while let Some(incoming) = endpoint.accept().await {
            tokio::task::spawn_local(async move {
                let Ok(conn) = incoming.await else { return };
                let Ok(mut h3) = h3::server::Connection::<_, Bytes>::new(h3_quinn::Connection::new(conn)).await
                else { return };
                while let Ok(Some(resolver)) = h3.accept().await {
                    tokio::task::spawn_local(async move {
                        let Ok((_req, mut stream)) = resolver.resolve_request().await else { return };
                        let response = http::Response::builder()
                            .header("content-length", BODY.len())
                            .body(())
                            .unwrap();
                        if stream.send_response(response).await.is_err() { return }
                        if stream.send_data(Bytes::from_static(BODY)).await.is_err() { return }
                        let _ = stream.finish().await;
                    });
                }
            });
        }
    }).await;
}
