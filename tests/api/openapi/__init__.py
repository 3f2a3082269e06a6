"""The OpenAPI document, and clients made from it alone that play every variant."""
