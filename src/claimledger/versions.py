"""The versions of the page reader and of the matcher, which every stored fetch and check
names (`recipes.recipe`), and of the reading of the docs' history, which every kept quote
history names: a snapshot, a verdict or a history made by another version is made again,
never reused. Kept apart from them, so that a refresh whose every page is unchanged loads
none.
"""

EXTRACT = 9  # bump when a change to reading a page (decoding, extract.py) could alter a verdict
MATCH = 45  # bump when a change to the matcher could alter a verdict
HISTORY = 1  # bump when a change to reading the docs' history could alter a history
