"""The Slack adapter: ``/quiz`` and quiz buttons on slack-bolt's AsyncApp.

``quizbot run slack`` calls ``runtime.serve`` with the Slack section of the settings
(``settings.SlackSettings``): Socket Mode with SLACK_APP_TOKEN, HTTP mode (signed
requests at /slack/events) with ``--http``. Only ``runtime`` imports slack-bolt, so
reading the settings does not.
"""
