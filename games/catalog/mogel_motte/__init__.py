"""The presentation of mogel motte: what the site says and draws for it."""
