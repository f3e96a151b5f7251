"""
Zulip's documentation examples for channel administration (issue 24 part A), in the order of
Zulip's `test_streams`: each makes the documented call with the documented request, then the
checks Zulip's file makes. Where Zulip's example names its development database's data (user 25
"newbie", channel 1 "Denmark" with its topic "test"), the demo organization's stands in; the
operations Zulip's file has no example for (email address, channel folders) are written the same way.
"""
import json

from runner import Examples


def user_id(ex: Examples, email: str) -> int:
    return ex.client("iago").call_endpoint(url=f"/users/{email}", method="GET")["user"]["user_id"]


def channel_administration(ex: Examples) -> None:
    client = ex.client("iago")
    iago, hamlet = user_id(ex, "iago@example.com"), user_id(ex, "hamlet@example.com")
    # /users/me/subscriptions:post (the setup of the examples below)
    result = client.add_subscriptions(streams=[{"name": "python-test", "description": "Channel for testing Python"}])
    ex.check("POST /users/me/subscriptions", result)
    result = client.add_subscriptions(streams=[{"name": "python-test"}], principals=[hamlet])
    ex.check("POST /users/me/subscriptions", result, str(hamlet) in result.get("subscribed", {}))
    stream_id = client.get_stream_id("python-test")["stream_id"]

    # /streams/{stream_id}:patch
    result = client.update_stream({"stream_id": stream_id, "is_private": True})
    ex.check("PATCH /streams/{stream_id}", result)

    # /streams/{stream_id}/members:get
    result = client.get_subscribers(stream="python-test")
    ex.check("GET /streams/{stream_id}/members", result, result.get("subscribers") == [iago, hamlet])

    # /users/{user_id}/subscriptions/{stream_id}:get
    first = client.get_subscriptions()["subscriptions"][0]["stream_id"]
    prospero = user_id(ex, "prospero@example.com")
    result = client.call_endpoint(url=f"/users/{prospero}/subscriptions/{first}", method="GET")
    ex.check("GET /users/{user_id}/subscriptions/{stream_id}", result, isinstance(result.get("is_subscribed"), bool))

    # /streams/{stream_id}/delete_topic:post (Zulip's deletes channel 1's topic "test")
    denmark = client.get_stream_id("Denmark")["stream_id"]
    client.send_message({"type": "stream", "to": "Denmark", "topic": "test", "content": "to be deleted"})
    result = client.call_endpoint(url=f"/streams/{denmark}/delete_topic", method="POST", request={"topic_name": "test"})
    ex.check("POST /streams/{stream_id}/delete_topic", result, result.get("complete") is True)
    topics = [t["name"] for t in client.get_stream_topics(denmark)["topics"]]
    ex.assert_that("POST /streams/{stream_id}/delete_topic: the topic is gone", "test" not in topics, str(topics))

    # /streams/{stream_id}:delete
    client.add_subscriptions(streams=[{"name": "example to archive"}])
    archived = client.get_stream_id("example to archive")["stream_id"]
    result = client.delete_stream(archived)
    ex.check("DELETE /streams/{stream_id}", result)
    # /streams/{stream_id}:patch, unarchiving (level 388: `is_archived` false only)
    result = client.call_endpoint(url=f"/streams/{archived}", method="PATCH", request={"is_archived": False})
    ex.check("PATCH /streams/{stream_id}", result)
    ex.assert_that("PATCH /streams/{stream_id}: unarchived", client.get_stream_id("example to archive").get("stream_id") == archived)

    # /default_streams:post, /default_streams:delete
    client.add_subscriptions(streams=[{"name": "test channel", "description": "New channel for testing"}])
    test_channel = client.get_stream_id("test channel")["stream_id"]
    result = client.add_default_stream(test_channel)
    ex.check("POST /default_streams", result)
    result = client.call_endpoint(url="/default_streams", method="DELETE", request={"stream_id": test_channel})
    ex.check("DELETE /default_streams", result)

    # /streams/{stream_id}/email_address:get (no email gateway is set up: Zulip answers an empty address)
    result = client.call_endpoint(url=f"/streams/{denmark}/email_address", method="GET")
    ex.check("GET /streams/{stream_id}/email_address", result, result.get("email") == "")


def authorization_errors_fatal(ex: Examples) -> None:
    """Zulip's `test_authorization_errors_fatal`: a channel made private, then a member asks to join it."""
    client, nonadmin = ex.client("iago"), ex.client("hamlet")
    client.add_subscriptions(streams=[{"name": "private-channel"}])
    stream_id = client.get_stream_id("private-channel")["stream_id"]
    result = client.call_endpoint(f"streams/{stream_id}", method="PATCH", request={"is_private": True})
    ex.check("PATCH /streams/{stream_id}", result)
    result = nonadmin.add_subscriptions(streams=[{"name": "private-channel"}], authorization_errors_fatal=False)
    ex.check("POST /users/me/subscriptions", result, result.get("unauthorized") == ["private-channel"])
    result = nonadmin.add_subscriptions(streams=[{"name": "private-channel"}], authorization_errors_fatal=True)
    ex.check("POST /users/me/subscriptions", result, result.get("code") == "BAD_REQUEST", status="400")


def channel_folders(ex: Examples) -> None:
    client = ex.client("iago")
    # /channel_folders/create:post
    request = {"name": "marketing", "description": "Channels for marketing"}
    result = client.call_endpoint(url="/channel_folders/create", method="POST", request=request)
    ex.check("POST /channel_folders/create", result)
    folder = result["channel_folder_id"]
    other = client.call_endpoint(url="/channel_folders/create", method="POST", request={"name": "design", "description": ""})["channel_folder_id"]

    # /channel_folders:get
    result = client.call_endpoint(url="/channel_folders", method="GET")
    ex.check("GET /channel_folders", result, [f["id"] for f in result.get("channel_folders", [])][-2:] == [folder, other])

    # /channel_folders/{channel_folder_id}:patch
    request = {"name": "sales", "description": "Channels for the sales team"}
    result = client.call_endpoint(url=f"/channel_folders/{folder}", method="PATCH", request=request)
    ex.check("PATCH /channel_folders/{channel_folder_id}", result)

    # /channel_folders:patch
    order = [f["id"] for f in client.call_endpoint(url="/channel_folders", method="GET")["channel_folders"]][::-1]
    result = client.call_endpoint(url="/channel_folders", method="PATCH", request={"order": json.dumps(order)})
    ex.check("PATCH /channel_folders", result)
    listed = [f["id"] for f in client.call_endpoint(url="/channel_folders", method="GET").get("channel_folders", [])]
    ex.assert_that("PATCH /channel_folders: listed in the new order", listed == order, f"{listed} != {order}")
