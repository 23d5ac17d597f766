"""What a checkout may do (trust: artifacts, wider settings, templates), and the demo's
pages and steps."""
