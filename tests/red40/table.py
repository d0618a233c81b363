"""Print red40's table: `python -m tests.red40.table [NAME...]` (one line per check)."""
import sys

from tests.red37 import table
from tests.red40.cases import all_cases
from tests.red40.check import classify


if __name__ == "__main__":
    table.main(sys.argv[1:], all_cases(), classify)
