"""A fake Slack on 127.0.0.1, for tests and for trying quizbot by hand: the Web API, Socket
Mode and the Add to Slack pages the real slack-bolt app talks to (``FakeSlack``,
server.py), and Slack's other half, which sends the app signed requests
(``SlackDriver``, driver.py). What Slack would refuse of what the app sends is in
checks.py."""

from .checks import message_problems, view_problems
from .driver import SlackDriver
from .reading import buttons, shown_text
from .recorder import Call
from .server import ChannelPost, FakeSlack
from .world import CLIENT_ID, CLIENT_SECRET, User

__all__ = [
    "CLIENT_ID",
    "CLIENT_SECRET",
    "Call",
    "ChannelPost",
    "FakeSlack",
    "SlackDriver",
    "User",
    "buttons",
    "message_problems",
    "shown_text",
    "view_problems",
]
