"""The only door to the network: the client, one exchange, robots.txt, pacing and the
destinations a page may be fetched from."""
