"""What a checkout may do and where the user's own files live: trust, the private
directories, and the demo workspace."""
