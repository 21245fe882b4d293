"""The built-in Euchre bots: what a seat knows, rules of thumb, and a sampling search."""
