"""PyInstaller entry script: the frozen nanshan-gui is app.main.main()."""
import sys

from app.main import main

if __name__ == "__main__":
    sys.exit(main())
