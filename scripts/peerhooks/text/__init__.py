"""What is shown: secrets taken out of it (redact, secret_shapes), blocks fitted to a budget (render),
timestamps read and written (timeutil)."""
