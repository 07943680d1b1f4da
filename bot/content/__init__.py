"""Content: question banks (validated YAML), their lint and export."""
