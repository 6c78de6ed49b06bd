"""A logged HTTP stub on loopback, the part the Claude Code (Messages API) and Codex (Responses API)
stand-ins share: every request is kept in memory and appended to a JSONL file, which is the tests'
oracle of what a client sent. Each stub supplies `answer(handler, body)` and how a reply is logged."""
import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable, List, Optional


@dataclass
class LoggedRequest:
    method: str
    path: str
    body: object  # the parsed JSON body, or the raw text when it was not JSON
    reply: Optional[object] = None  # what the stub model answered, where the request asked


@dataclass
class RequestLog:
    path: str
    describe_reply: Callable[[object], object]  # a reply as JSON for the log file
    entries: List[LoggedRequest] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, entry):
        with self.lock:
            self.entries.append(entry)
            with open(self.path, "a", encoding="utf-8") as handle:
                reply = None if entry.reply is None else self.describe_reply(entry.reply)
                handle.write(json.dumps({"method": entry.method, "path": entry.path, "body": entry.body,
                                         "reply": reply}) + "\n")


class JsonHandler(BaseHTTPRequestHandler):
    """Reads a JSON body and writes replies; a stub's handler implements `_handle`."""
    protocol_version = "HTTP/1.1"
    log = None  # set on the subclass made per server

    def log_message(self, format, *args):  # noqa: A002 - the stdlib's signature
        pass  # the JSONL log is the record; stderr chatter would only bury test output

    def _body(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            return json.loads(raw.decode("utf-8")) if raw else None
        except ValueError:
            return raw.decode("utf-8", errors="replace")

    def _send(self, status, content_type, data):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _send_json(self, value):
        self._send(200, "application/json", json.dumps(value).encode("utf-8"))


class LoopbackStub:
    """A running stub on 127.0.0.1 at a free port; a context manager, or start()/stop()."""

    def __init__(self, log_path, handler_class, describe_reply):
        self._log = RequestLog(log_path, describe_reply)
        handler = type(handler_class.__name__ + "Bound", (handler_class,), {"log": self._log})
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def port(self):
        return self._server.server_address[1]

    @property
    def log_path(self):
        return self._log.path

    @property
    def requests(self):
        with self._log.lock:
            return list(self._log.entries)

    def start(self):
        self._thread.start()
        return self

    def stop(self):
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
