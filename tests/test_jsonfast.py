"""jsonfast decodes exactly as json.loads and encodes exactly as a compact json.dumps: the same
value or text, or the same kind of error."""
import json
import math
import os
import subprocess
import sys
import unittest

import support  # noqa: F401  (puts scripts/ on sys.path)
from peerhooks.startup import jsonfast

VALID = [
    '{"session_id": "s", "cwd": "/x", "tool_input": {"command": "git status"}}\n',
    '  [1, 2.5, -3e4, true, false, null, "a\\u00e9\\ud83d\\ude00\\n"]  ',
    '"just a string"', "12345678901234567890123", "-0", "0.1", "[]", "{}",
    '{"a": NaN, "b": Infinity, "c": -Infinity}',
    '{"dup": 1, "dup": 2}',
    '{"lone surrogate": "\\ud800"}',
    '\t\r\n{"ws": "around"}\r\n\t',
    '{"ünï": "cödé", "emoji": "😀"}',
]
INVALID = [
    "", "   ", "{not json", '{"a": 1} trailing', '{"a": 1}{"b": 2}', "[1, 2,]", "{'single': 1}",
    '"unterminated', '"bad escape \\x"', '"raw\ncontrol"', "nan", "01", "\ufeff{}",
]


class DecodesAsJsonDoes(unittest.TestCase):
    def assertSameDecoding(self, data):
        try:
            expected = json.loads(data)
        except Exception as error:  # noqa: BLE001 - whatever json raises, jsonfast must raise too
            with self.assertRaises(type(error), msg=repr(data)[:60]):
                jsonfast.loads(data)
            return
        actual = jsonfast.loads(data)
        self.assertEqual(json.dumps(actual, sort_keys=True), json.dumps(expected, sort_keys=True), repr(data)[:60])
        self.assertEqual(type(actual), type(expected))

    def test_valid_documents_decode_to_the_same_values_from_str_and_bytes(self):
        for text in VALID:
            self.assertSameDecoding(text)
            self.assertSameDecoding(text.encode("utf-8", "surrogatepass"))

    def test_invalid_documents_raise_what_json_raises(self):
        for text in INVALID:
            self.assertSameDecoding(text)
            self.assertSameDecoding(text.encode("utf-8"))

    def test_bytes_in_other_encodings_or_with_a_bom_decode_as_json_reads_them(self):
        document = '{"a": "é"}'
        for raw in (document.encode("utf-16"), document.encode("utf-16-le"), document.encode("utf-32"),
                    b"\xef\xbb\xbf" + document.encode("utf-8"), b"\xff\xfe\x00garbage", b"\x00", b"\xc3(",
                    bytearray(document.encode("utf-8"))):
            self.assertSameDecoding(raw)

    def test_not_a_number_stays_a_float_nan(self):
        self.assertTrue(math.isnan(jsonfast.loads("[NaN]")[0]))

    def test_deep_nesting_raises_too_deep_a_value_error_where_json_raises_recursion_error(self):
        for document in ("[" * 100000 + "]" * 100000, '{"a":' * 1200 + "1" + "}" * 1200,
                         b"\xef\xbb\xbf" + b"[" * 1200 + b"]" * 1200):
            with self.assertRaises(RecursionError):
                json.loads(document)
            with self.assertRaises(jsonfast.TooDeep) as caught:
                jsonfast.loads(document)
            self.assertIsInstance(caught.exception, ValueError)
        self.assertEqual(jsonfast.loads("[" * 200 + "]" * 200), json.loads("[" * 200 + "]" * 200))

    def test_non_text_input_raises_type_error_as_json_does(self):
        for value in (None, 5, memoryview(b"{}")):
            self.assertSameDecoding(value)


    def test_errors_are_json_errors_in_a_process_that_never_imported_json(self):
        # In-process `json` is already loaded; a hook under -S has not loaded it when the scanner fails.
        code = ("import sys; from peerhooks.startup import jsonfast\n"
                "for text in sys.argv[1:]:\n"
                "    try: jsonfast.loads(text)\n"
                "    except ValueError as error: print(type(error).__name__)\n")
        documents = ["{corrupt", '{"a": 1,', '"bad escape \\x"', "", "[1] extra"]
        completed = subprocess.run([sys.executable, "-S", "-c", code] + documents, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, cwd=support.SCRIPTS, timeout=support.SCRIPT_TIMEOUT,
                                   env=dict(os.environ, PYTHONPATH=support.SCRIPTS))
        self.assertEqual(completed.stdout.decode().split(), ["JSONDecodeError"] * len(documents),
                         completed.stderr.decode())


    def test_without_the_c_scanner_json_itself_decodes(self):
        scan, jsonfast._scan = jsonfast._scan, None
        self.addCleanup(setattr, jsonfast, "_scan", scan)
        self.assertEqual(jsonfast.loads(b'{"a": [1]}'), {"a": [1]})
        with self.assertRaises(ValueError):
            jsonfast.loads("{bad")


ENCODABLE = [
    {"version": 1, "files": {"/m/ä.md": [1796000000000123456, 42]}, "listedAtMs": 1796000000000},
    [1, -2.5, 1e300, float("inf"), float("-inf"), None, True, False, "tab\tquote\"back\\slash\u2028😀"],
    {1: "int key", 2.5: "float key", None: "null key", True: "bool key"}, "just a string", 3, None, [],
    {"nested": [{"deep": [[[]]]}]},
]


class EncodesAsJsonDoes(unittest.TestCase):
    def test_values_encode_to_the_same_compact_text(self):
        for value in ENCODABLE:
            for ensure_ascii in (True, False):
                self.assertEqual(jsonfast.dumps(value, ensure_ascii=ensure_ascii),
                                 json.dumps(value, ensure_ascii=ensure_ascii, separators=(",", ":")))

    def test_what_json_cannot_encode_raises_what_json_raises(self):
        circular = []
        circular.append(circular)
        for value in (circular, {"x": object()}, {(1, 2): "tuple key"}, {1, 2}):
            with self.assertRaises(Exception) as expected:
                json.dumps(value, separators=(",", ":"))
            with self.assertRaises(type(expected.exception)):
                jsonfast.dumps(value)


    def test_without_the_c_encoder_json_itself_encodes(self):
        from unittest import mock

        with mock.patch.dict(sys.modules, {"_json": None}):  # `from _json import ...` raises ImportError
            self.assertEqual(jsonfast.dumps({"a": "é"}, ensure_ascii=False), '{"a":"é"}')


if __name__ == "__main__":
    unittest.main()
