"""
Zulip's documentation examples for organization administration, bots, presence, exports, video
calls, the test notification and incoming webhooks (issue 24 part B), as Zulip's file makes
them where it has them (`set_moderation_request_channel`, `test_welcome_bot_custom_message`,
`get_user_presence`, `get_presence`, `export_realm`, …), and written the same way where it has
none (bots, the user settings defaults, BigBlueButton, incoming webhooks: Zulip documents these
with curl, and the answers of those outside its OpenAPI document are not schema-checked).
"""
import time

import requests

from runner import Examples


def organization(ex: Examples) -> None:
    client = ex.client("iago")
    # /realm:patch (Zulip's `set_moderation_request_channel`, then its reverse)
    channel_id = client.get_stream_id("moderation")["stream_id"]
    result = client.call_endpoint("/realm", method="PATCH", request={"moderation_request_channel_id": channel_id})
    ex.check("PATCH /realm", result)
    result = client.call_endpoint("/realm", method="PATCH", request={"moderation_request_channel_id": "-1"})
    ex.check("PATCH /realm (the feature off again)", result)
    result = client.call_endpoint("/realm", method="PATCH", request={"description": "An organization for the examples"})
    ex.check("PATCH /realm (description)", result)

    # /realm/user_settings_defaults:patch
    request = {"left_side_userlist": True, "emojiset": "google"}
    result = client.call_endpoint("/realm/user_settings_defaults", method="PATCH", request=request)
    ex.check("PATCH /realm/user_settings_defaults", result)

    # /realm/test_welcome_bot_custom_message:post
    request = {"welcome_message_custom_text": "Custom Welcome Message Text"}
    result = client.call_endpoint("/realm/test_welcome_bot_custom_message", method="POST", request=request)
    ex.check("POST /realm/test_welcome_bot_custom_message", result, isinstance(result.get("message_id"), int))


def presence(ex: Examples) -> None:
    client = ex.client("iago")
    # /users/me/presence:post (so that there is something to read)
    request = {"status": "active", "ping_only": False, "new_user_input": False, "last_update_id": -1}
    ex.check("POST /users/me/presence", client.update_presence(request))
    # /users/{user_id_or_email}/presence:get
    result = client.get_user_presence("iago@example.com")
    ex.check("GET /users/{user_id_or_email}/presence", result, "aggregated" in result.get("presence", {}))
    # /realm/presence:get
    result = client.get_realm_presence()
    ex.check("GET /realm/presence", result, "iago@example.com" in result.get("presences", {}))


def exports(ex: Examples) -> None:
    client = ex.client("iago")
    # /export/realm:post
    result = client.call_endpoint(url="/export/realm", method="POST")
    ex.check("POST /export/realm", result)
    export_id = result.get("id")
    # /export/realm:get (the export is made outside the request: it is listed at once, pending or made)
    result = client.call_endpoint(url="/export/realm", method="GET")
    ex.check("GET /export/realm", result, export_id in [e["id"] for e in result.get("exports", [])])
    # /export/realm/consents:get
    result = client.call_endpoint(url="/export/realm/consents", method="GET")
    ex.check("GET /export/realm/consents", result, len(result.get("export_consents", [])) > 0)
    deadline = time.time() + 60
    while time.time() < deadline:
        made = [e for e in client.call_endpoint(url="/export/realm", method="GET")["exports"] if e["id"] == export_id]
        if made and not made[0]["pending"]:
            break
        time.sleep(0.2)
    ex.assert_that("POST /export/realm: the export is made outside the request", bool(made) and made[0]["export_url"] is not None, str(made))
    # /export/realm/{export_id}:delete
    result = client.call_endpoint(url=f"/export/realm/{export_id}", method="DELETE")
    ex.check("DELETE /export/realm/{export_id}", result)
    listed = [e for e in client.call_endpoint(url="/export/realm", method="GET")["exports"] if e["id"] == export_id]
    ex.assert_that("DELETE /export/realm/{export_id}: marked deleted", bool(listed) and listed[0]["deleted_timestamp"] is not None, str(listed))


def bots(ex: Examples) -> None:
    client = ex.client("iago")
    # /bots:post (a generic bot, then an incoming webhook bot)
    request = {"full_name": "Example bot", "short_name": "example", "bot_type": 1}
    result = client.call_endpoint(url="/bots", method="POST", request=request)
    ex.check("POST /bots", result, isinstance(result.get("user_id"), int) and len(result.get("api_key", "")) > 0)
    bot_id = result["user_id"]
    # /bots:get
    result = client.call_endpoint(url="/bots", method="GET")
    ex.check("GET /bots", result, [b["full_name"] for b in result.get("bots", []) if b["username"].startswith("example-bot@")] == ["Example bot"])
    # /bots/{bot_id}:patch
    result = client.call_endpoint(url=f"/bots/{bot_id}", method="PATCH", request={"full_name": "Renamed bot"})
    ex.check("PATCH /bots/{bot_id}", result, result.get("full_name") == "Renamed bot")
    # /bots/{bot_id}/api_key/regenerate:post
    result = client.call_endpoint(url=f"/bots/{bot_id}/api_key/regenerate", method="POST")
    ex.check("POST /bots/{bot_id}/api_key/regenerate", result, len(result.get("api_key", "")) > 0)
    # /bots/{bot_id}:delete, then /users/{user_id}/reactivate:post
    ex.check("DELETE /bots/{bot_id}", client.call_endpoint(url=f"/bots/{bot_id}", method="DELETE"))
    ex.check("POST /users/{user_id}/reactivate", client.reactivate_user_by_id(bot_id))


def webhooks(ex: Examples) -> None:
    client = ex.client("iago")
    request = {"full_name": "Webhook bot", "short_name": "hooks", "bot_type": 2}
    bot = client.call_endpoint(url="/bots", method="POST", request=request)
    key = bot["api_key"]
    # POST /external/slack_incoming (Zulip's documentation: curl with the bot's key in the URL)
    url = f"{ex.site}/api/v1/external/slack_incoming"
    answer = requests.post(url, params={"api_key": key, "stream": "Verona", "topic": "hooks"}, json={"text": "Hello from *Slack*"}, timeout=10).json()
    ex.check("POST /external/slack_incoming", answer)
    # POST /external/github (GitHub's setup ping)
    payload = {"zen": "Keep it logically awesome.", "hook_id": 1, "repository": {"name": "example", "full_name": "iago/example", "private": False}, "sender": {"login": "iago"}}
    headers = {"X-GitHub-Event": "ping"}
    answer = requests.post(f"{ex.site}/api/v1/external/github", params={"api_key": key, "stream": "Verona"}, json=payload, headers=headers, timeout=10).json()
    ex.check("POST /external/github", answer)
    newest = client.get_messages({"anchor": "newest", "num_before": 1, "num_after": 0, "narrow": [{"operator": "channel", "operand": "Verona"}]})
    content = newest["messages"][0]["content"] if newest.get("messages") else ""
    ex.assert_that("POST /external/github: the setup message", "GitHub webhook has been successfully configured by iago" in content, content)


def calls_and_push(ex: Examples) -> None:
    client = ex.client("iago")
    # /calls/bigbluebutton/create:get (the server is given a BigBlueButton server by the runner)
    result = client.call_endpoint(url="/calls/bigbluebutton/create", method="GET", request={"meeting_name": "test meeting", "voice_only": True})
    ex.check("GET /calls/bigbluebutton/create", result, result.get("url", "").startswith("/calls/bigbluebutton/join?bigbluebutton="))
    # /mobile_push/test_notification:post (to the device Zulip's examples register first)
    client.call_endpoint(url="/users/me/android_gcm_reg_id", method="POST", request={"token": "android-token"})
    result = client.call_endpoint(url="/mobile_push/test_notification", method="POST", request={"token": "android-token"})
    ex.check("POST /mobile_push/test_notification", result)
