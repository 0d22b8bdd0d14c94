// Shared helpers for tests: locating ../shared/refs and the fetched models.
