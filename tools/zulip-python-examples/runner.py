"""
What every example shares: the clients (the demo organization's people, logged in with their
password as Zulip's clients do), and `check`, which records an example's outcome as Zulip's
`assert_success_response` and `validate_against_openapi_schema` would judge it.
"""
import json
import traceback
import urllib.parse
import urllib.request
from typing import Any, Callable

import zulip

from openapi_check import OpenApi, SchemaError

PASSWORD = "parley-demo"


def api_key(site: str, email: str) -> str:
    body = urllib.parse.urlencode({"username": email, "password": PASSWORD}).encode()
    with urllib.request.urlopen(f"{site}/api/v1/fetch_api_key", body) as response:
        return json.load(response)["api_key"]


class Examples:
    def __init__(self, site: str, openapi_path: str) -> None:
        self.site = site
        self.openapi = OpenApi(openapi_path)
        self.results: list[tuple[str, bool, str]] = []
        self.clients: dict[str, zulip.Client] = {}

    def client(self, name: str) -> zulip.Client:
        """`iago` (an administrator, the examples' `client`), `desdemona` (the owner), `hamlet` (a member)…"""
        if name not in self.clients:
            email = f"{name}@example.com"
            self.clients[name] = zulip.Client(email=email, api_key=api_key(self.site, email), site=self.site)
        return self.clients[name]

    def check(self, operation: str, result: dict[str, Any], extra: bool = True, status: str = "200") -> dict[str, Any]:
        """`operation` is "METHOD /documented/path", perhaps with a note after it; a success answer unless `status` says otherwise."""
        method, path = operation.split(" ")[:2]
        wanted = "success" if status.startswith("2") else "error"
        detail = ""
        ok = result.get("result") == wanted and extra
        if not ok:
            detail = json.dumps(result)[:300]
        else:
            try:
                if not self.openapi.validate(result, path, method, status) and status.startswith("2"):
                    detail = "(not in Zulip's OpenAPI document: answer not schema-checked)"
            except SchemaError as error:
                ok, detail = False, str(error)[:400]
        self.results.append((operation, ok, detail))
        return result

    def assert_that(self, what: str, ok: bool, detail: str = "") -> None:
        """One of the example's own assertions (Zulip's `assert ...` after a call), recorded as a result."""
        self.results.append((what, ok, "" if ok else detail))

    def run(self, example: Callable[["Examples"], None]) -> None:
        """Runs one example; an exception is that example's failure, and the others still run."""
        try:
            example(self)
        except Exception as error:  # noqa: BLE001 -- every failure is reported, none stops the run
            where = traceback.extract_tb(error.__traceback__)[-1]
            self.results.append((example.__name__, False, f"{type(error).__name__}: {error} (line {where.lineno})"))

    def report(self) -> int:
        for operation, ok, detail in self.results:
            print(f"{'ok    ' if ok else 'FAILED'} {operation} {detail}".rstrip())
        failed = sum(1 for _, ok, _ in self.results if not ok)
        print(f"{len(self.results) - failed} of {len(self.results)} examples passed")
        return 1 if failed else 0
