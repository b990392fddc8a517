"""Discord extensions: one thin cog per game plus the economy and table tools."""
