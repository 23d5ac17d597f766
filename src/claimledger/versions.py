"""The versions of the page reader and of the matcher, which every stored fetch and check
names (`recipes.recipe`): a snapshot or a verdict made by another version is made again,
never reused. Kept apart from the two, so that a refresh whose every page is unchanged
loads neither.
"""

EXTRACT = 9  # bump when a change to reading a page (decoding, extract.py) could alter a verdict
MATCH = 45  # bump when a change to the matcher could alter a verdict
