"""The presentation of cockroach poker: what the site says and draws for it."""
