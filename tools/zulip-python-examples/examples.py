#!/usr/bin/env python3
"""
Zulip's API documentation examples (zerver/openapi/python_examples.py) for the operations of
issue 24 part C, run with Zulip's Python client against a Parley server: each example makes the
documented client call, with the documented request, and checks Zulip's success answer.

Usage: examples.py SITE   (the python-zulip-api `zulip` package on PYTHONPATH; the demo
organization's iago@example.com / parley-demo as the administrator the examples act as).
"""
import json
import sys
import urllib.parse
import urllib.request

import zulip


def api_key(site: str, email: str) -> str:
    body = urllib.parse.urlencode({"username": email, "password": "parley-demo"}).encode()
    with urllib.request.urlopen(f"{site}/api/v1/fetch_api_key", body) as response:
        return json.load(response)["api_key"]


def main() -> int:
    site = sys.argv[1]
    client = zulip.Client(email="iago@example.com", api_key=api_key(site, "iago@example.com"), site=site)
    results: list[tuple[str, bool, str]] = []

    def check(operation: str, result: dict, extra: bool = True) -> dict:
        ok = result.get("result") == "success" and extra
        results.append((operation, ok, "" if ok else json.dumps(result)[:300]))
        return result

    # /messages/render:post
    result = client.render_message({"content": "**foo**"})
    check("POST /messages/render", result, result.get("rendered") == "<p><strong>foo</strong></p>")

    # /messages/matches_narrow:get (two messages of the caller's own first)
    sent = [client.send_message({"type": "stream", "to": "Verona", "topic": "python examples", "content": content})["id"]
            for content in ("hello there", "a link: https://zulip.com")]
    result = client.call_endpoint(url="messages/matches_narrow", method="GET",
                                  request={"msg_ids": sent, "narrow": [{"operator": "has", "operand": "link"}]})
    check("GET /messages/matches_narrow", result, list(result.get("messages", {})) == [str(sent[1])])

    # /messages/{message_id}/typing:post
    result = client.call_endpoint(url=f"/messages/{sent[0]}/typing", method="POST", request={"op": "start"})
    check("POST /messages/{message_id}/typing", result)

    # /realm/filters:post, /realm/linkifiers:get, /realm/filters/{filter_id}:patch,
    # /realm/linkifiers:patch, /realm/filters/{filter_id}:delete
    request = {"pattern": "#(?P<id>[0-9]+)", "url_template": "https://github.com/zulip/zulip/issues/{id}"}
    filter_id = check("POST /realm/filters", client.call_endpoint("/realm/filters", method="POST", request=request))["id"]
    other = client.call_endpoint("/realm/filters", method="POST",
                                 request={"pattern": "T(?P<id>[0-9]+)", "url_template": "https://trac.example.com/{id}"})["id"]
    result = client.get_realm_linkifiers()
    check("GET /realm/linkifiers", result, [l["id"] for l in result.get("linkifiers", [])] == [filter_id, other])
    check("PATCH /realm/filters/{filter_id}", client.call_endpoint(url=f"/realm/filters/{filter_id}", method="PATCH", request=request))
    reordered = [other, filter_id]
    check("PATCH /realm/linkifiers", client.call_endpoint(url="/realm/linkifiers", method="PATCH",
                                                          request={"ordered_linkifier_ids": json.dumps(reordered)}))
    check("DELETE /realm/filters/{filter_id}", client.remove_realm_filter(filter_id))

    # /realm/playgrounds:post, /realm/playgrounds/{playground_id}:delete (the example removes id 1,
    # the first playground of a new organization)
    request = {"name": "Python playground", "pygments_language": "Python", "url_template": "https://python.example.com?code={code}"}
    playground = check("POST /realm/playgrounds", client.call_endpoint(url="/realm/playgrounds", method="POST", request=request))
    check("DELETE /realm/playgrounds/{playground_id}", client.call_endpoint(url=f"/realm/playgrounds/{playground.get('id', 1)}", method="DELETE"))

    for operation, ok, detail in results:
        print(f"{'ok    ' if ok else 'FAILED'} {operation} {detail}")
    failed = sum(1 for _, ok, _ in results if not ok)
    print(f"{len(results) - failed} of {len(results)} examples passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
