"""Operations: settings, logs, metrics, health and process tuning."""
