"""Pure reading of a page: its bytes decoded, its head parsed, its text extracted and a
quote matched in it. Nothing here fetches, records or prints."""
