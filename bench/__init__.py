"""quizbot's benchmarks: ``python -m bench`` runs them all (see bench/README.md)."""
