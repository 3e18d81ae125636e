"""南山问律 desktop app: PySide6 widgets over nanshan_core (which never imports Qt)."""
