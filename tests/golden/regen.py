"""Rewrite every golden file from the current compiler: `python -m tests.golden.regen`.
Run it only when a change of generated code is meant, and review the diff it leaves."""
from tests.golden.golden import golden_files


def main():
    for path, text in golden_files():
        path.parent.mkdir(exist_ok=True)
        new = text()
        old = path.read_text() if path.exists() else None
        if new != old:
            path.write_text(new)
            print(("rewrote " if old is not None else "wrote ") + str(path))


if __name__ == "__main__":
    main()
