"""Play: quiz runs, scoring, the daily question, races, competitions and the engine."""
