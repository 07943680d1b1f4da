"""Orchestration: the quiz, boards, channel play and operations, over the domain and the store."""
