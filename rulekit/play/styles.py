"""The styles of the terminal table, one name per use."""

STYLE_TITLE = "bold"  # a screen's title, a banner
STYLE_HEAD = "bold"  # the name before a value
STYLE_SECTION = "bold underline"  # a section's title
STYLE_YOU = "bold green"  # the player's own name and position
STYLE_ROLE = "bold magenta"  # another player's name
STYLE_CARD = "cyan"
STYLE_HIDDEN = "dim"  # what is face down, or said in passing
STYLE_PRIVATE = "yellow"  # an event only one player sees
STYLE_KEY = "bold cyan"  # the key to type for a menu line
STYLE_ERROR = "bold red"
STYLE_END = "bold reverse"  # the end of the game
