"""One router per resource: the game catalog and game sessions."""
