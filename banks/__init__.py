"""The shipped question banks: a data package (one YAML file per topic), installed as
``bot.shipped_banks`` so every kind of install carries it."""
