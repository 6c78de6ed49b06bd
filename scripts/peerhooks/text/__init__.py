"""What is shown: text a peer controls made one safe line (peertext), secrets taken out of it (redact,
secret_shapes), blocks fitted to a budget (render), timestamps read and written (timeutil)."""
