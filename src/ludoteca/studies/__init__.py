"""Win-rate studies over seeded deals, and bot tournaments, on concurrent.futures executors."""
