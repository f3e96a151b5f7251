"""
Zulip's documentation examples for the operations of issue 24 part C: rendering, narrows,
message-edit typing, linkifiers and code playgrounds.
"""
import json

from runner import Examples


def messages(ex: Examples) -> None:
    client = ex.client("iago")
    # /messages/render:post
    result = client.render_message({"content": "**foo**"})
    ex.check("POST /messages/render", result, result.get("rendered") == "<p><strong>foo</strong></p>")

    # /messages/matches_narrow:get (two messages of the caller's own first)
    sent = [client.send_message({"type": "stream", "to": "Verona", "topic": "test_topic", "content": content})["id"]
            for content in ("http://foo.com", "no link here")]
    request = {"msg_ids": sent, "narrow": [{"operator": "has", "operand": "link"}]}
    result = client.call_endpoint(url="messages/matches_narrow", method="GET", request=request)
    ex.check("GET /messages/matches_narrow", result, list(result.get("messages", {})) == [str(sent[0])])

    # /messages/{message_id}/typing:post
    for op in ("start", "stop"):
        result = client.call_endpoint(url=f"/messages/{sent[0]}/typing", method="POST", request={"op": op})
        ex.check("POST /messages/{message_id}/typing", result)


def linkifiers_and_playgrounds(ex: Examples) -> None:
    client = ex.client("iago")
    # /realm/linkifiers:get
    ex.check("GET /realm/linkifiers", client.call_endpoint(url="/realm/linkifiers", method="GET"))
    # /realm/filters:post
    request = {"pattern": "#(?P<id>[0-9]+)", "url_template": "https://github.com/zulip/zulip/issues/{id}"}
    filter_id = ex.check("POST /realm/filters", client.call_endpoint("/realm/filters", method="POST", request=request))["id"]
    other = client.call_endpoint("/realm/filters", method="POST", request={"pattern": "T(?P<id>[0-9]+)", "url_template": "https://trac.example.com/{id}"})["id"]
    result = client.get_realm_linkifiers()
    ex.check("GET /realm/linkifiers", result, [l["id"] for l in result.get("linkifiers", [])] == [filter_id, other])
    # /realm/filters/{filter_id}:patch
    ex.check("PATCH /realm/filters/{filter_id}", client.call_endpoint(url=f"/realm/filters/{filter_id}", method="PATCH", request=request))
    # /realm/playgrounds:post
    request = {"name": "Python playground", "pygments_language": "Python", "url_template": "https://python.example.com?code={code}"}
    playground = ex.check("POST /realm/playgrounds", client.call_endpoint(url="/realm/playgrounds", method="POST", request=request))
    # /realm/linkifiers:patch (Zulip's reverses the order)
    reordered = [l["id"] for l in client.call_endpoint(url="/realm/linkifiers", method="GET")["linkifiers"]][::-1]
    result = client.call_endpoint(url="/realm/linkifiers", method="PATCH", request={"ordered_linkifier_ids": json.dumps(reordered)})
    ex.check("PATCH /realm/linkifiers", result)
    # /realm/filters/{filter_id}:delete
    ex.check("DELETE /realm/filters/{filter_id}", client.remove_realm_filter(filter_id))
    # /realm/playgrounds/{playground_id}:delete (Zulip's removes id 1, the first of a new organization)
    ex.check("DELETE /realm/playgrounds/{playground_id}", client.call_endpoint(url=f"/realm/playgrounds/{playground.get('id', 1)}", method="DELETE"))
