"""`cardledger duel`: bot levels against each other on duplicate deals, and the peeking search
that measures what hidden information costs them."""
