"""Insights: what a team knows and does not know yet, from the log of every answer —
per topic and question, flagged questions, participation — for leads in chat, on the
command line and in the dashboard."""
