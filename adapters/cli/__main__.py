"""``python -m adapters.cli``: as ``quizbot run --workers`` starts each worker."""

import sys

from .main import main

sys.exit(main())
