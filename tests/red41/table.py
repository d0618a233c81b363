"""Print red41's table: `python -m tests.red41.table [NAME...]` (one line per check)."""
import sys

from tests.red37 import table
from tests.red41.cases import all_cases
from tests.red41.check import classify


if __name__ == "__main__":
    table.main(sys.argv[1:], all_cases(), classify)
