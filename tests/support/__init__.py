"""Test helpers, in one place: no test module imports from another."""
