"""The OpenAPI document: litestar's, refined so a generator can make a typed client of it."""
