"""The presentation of imperador: what the site says and draws for it."""
