"""The Slack adapter: ``/quiz`` and quiz buttons on slack-bolt's AsyncApp.

``quizbot run slack`` uses the three functions below: Socket Mode when SLACK_APP_TOKEN
is set, HTTP mode (signed requests at /slack/events) with ``--http``.
"""

from __future__ import annotations

from .runtime import serve
from .settings import configured
from .settings import problems as settings_problems

__all__ = ["configured", "serve", "settings_problems"]
