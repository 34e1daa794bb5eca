"""`python -m generator.engine dump FILE...`: what the real engine reads from game XMLs, as JSON."""

import sys

from generator.engine.harness import main

sys.exit(main())
