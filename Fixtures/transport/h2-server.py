# A minimal HTTP/2-only TLS server on loopback for the transport tests (CurlHTTP2Tests): TLS with
# ALPN "h2" (a client that does not choose h2 is closed at once), the client preface, SETTINGS and
# PING acknowledged, and every GET answered 200 with {"connection": N, "stream": S}, N counting
# the connections it accepted. Python 3 standard library only. Usage: h2-server.py CERT KEY
# (prints its port, then serves until killed).
import socket, ssl, struct, sys, threading, json
cert, key = sys.argv[1], sys.argv[2]
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain(cert, key)
ctx.set_alpn_protocols(["h2"])
listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(16)
print(listener.getsockname()[1], flush=True)
lock = threading.Lock()
counts = {"connections": 0, "refused": 0}

def frame(kind, flags, stream, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload

def literal(name, value):  # literal header field without indexing, new name, no Huffman
    n, v = name.encode(), value.encode()
    assert len(n) < 127 and len(v) < 127
    return b"\x00" + bytes([len(n)]) + n + bytes([len(v)]) + v

def read(conn, n):
    data = b""
    while len(data) < n:
        chunk = conn.recv(n - len(data))
        if not chunk: raise EOFError
        data += chunk
    return data

def serve(raw):
    try:
        conn = ctx.wrap_socket(raw, server_side=True)
    except Exception:
        raw.close(); return
    with lock:
        if conn.selected_alpn_protocol() != "h2":
            counts["refused"] += 1; conn.close(); return
        counts["connections"] += 1
        number = counts["connections"]
    try:
        if read(conn, 24) != b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n": raise EOFError
        conn.sendall(frame(4, 0, 0))
        while True:
            header = read(conn, 9)
            length = int.from_bytes(header[:3], "big"); kind, flags = header[3], header[4]
            stream = int.from_bytes(header[5:9], "big") & 0x7FFFFFFF
            payload = read(conn, length)
            if kind == 4 and not flags & 1: conn.sendall(frame(4, 1, 0))          # SETTINGS: ack
            elif kind == 6 and not flags & 1: conn.sendall(frame(6, 1, 0, payload))  # PING: ack
            elif kind == 7: break                                                # GOAWAY
            elif kind == 1 and flags & 1:                                        # HEADERS, END_STREAM (a GET)
                body = json.dumps({"connection": number, "stream": stream}).encode()
                block = b"\x88" + literal("content-type", "application/json") + literal("content-length", str(len(body)))
                conn.sendall(frame(1, 4, stream, block) + frame(0, 1, stream, body))
    except (EOFError, OSError, ssl.SSLError):
        pass
    conn.close()

while True:
    raw, _ = listener.accept()
    threading.Thread(target=serve, args=(raw,), daemon=True).start()
