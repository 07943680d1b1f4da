"""quizbot's platform-neutral core: banks, quiz runs, scoring, leaderboards and storage."""
