#!/usr/bin/env python3
"""
Zulip's API documentation examples (zerver/openapi/python_examples.py) for the operations of
issue 24, run with Zulip's Python client against a Parley server: each example makes the
documented client call with the documented request, then checks the answer as Zulip's file does
(success, its own assertions, and the answer against Zulip's OpenAPI schema for the operation).

Usage: examples.py SITE OPENAPI_YAML   (the python-zulip-api `zulip` package on PYTHONPATH; the
demo organization's people, iago@example.com the administrator the examples act as).
"""
import sys

from examples_channels import authorization_errors_fatal, channel_administration, channel_folders
from examples_messages import linkifiers_and_playgrounds, messages
from examples_organization import bots, calls_and_push, exports, organization, presence, webhooks
from runner import Examples

EXAMPLES = [
    # Part A: channel administration.
    channel_administration, authorization_errors_fatal, channel_folders,
    # Part B: the organization, bots and webhooks, presence, exports, calls, the test notification.
    organization, bots, webhooks, presence, exports, calls_and_push,
    # Part C.
    messages, linkifiers_and_playgrounds,
]


def main() -> int:
    site, openapi_path = sys.argv[1], sys.argv[2]
    ex = Examples(site, openapi_path)
    for example in EXAMPLES:
        ex.run(example)
    return ex.report()


if __name__ == "__main__":
    sys.exit(main())
