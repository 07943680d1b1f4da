import sys

from .standalone import main

sys.exit(main())
