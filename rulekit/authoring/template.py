"""The files of a new pack: a small game whose comments teach.

``__ID__``, ``__NAME__`` and ``__FOLDER__`` are replaced when the files are written.
``__SCHEMA__`` marks where each YAML file's editor header goes.
"""

from __future__ import annotations

__all__ = ["TEMPLATE"]

PACK = """\
__SCHEMA__
# __NAME__, made with `rulekit new`. This file is the manifest: who plays, what a player may
# tune, and which files hold the rest. rulekit's docs/pack-format.md lists every key.
id: __ID__                       # lower-case; `rulekit validate __ID__` finds the pack by it
name: __NAME__
version: 0.1.0
description: >-
  Two players each hold a hand of cards. Every round both play a card in secret and reveal
  them together; the higher card scores a point. The first to 3 points wins.
roles:                           # the players, in seating order; in code: red, blue
  - {id: red, name: Red}
  - {id: blue, name: Blue}
parameters:                      # whole numbers that code reads by name;
                                 # a player changes them with --param target_points=5
  target_points: {default: 3, min: 1, max: 20, description: Points that win at once}
  round_limit: {default: 7, min: 1, max: 50, description: Rounds before the game ends}
  cards_in_hand: {default: 3, min: 1, max: 5, description: Cards in a full hand}
include: [cards.yaml, components.yaml, flow.yaml]   # the content files
scenarios: [scenarios/*.yaml]    # scenario tests, run by `rulekit test`
rules: rules.yaml                # the rules with ids, for the coverage report
display:
  card_label: "{name} ({value})" # how players see a card: Gold (3)
"""

RULES = """\
__SCHEMA__
# The rules of __NAME__, each with an id. Scenario tests name the ids they check
# (covers: [R-02]); `rulekit test` reports the rules that no scenario covers.
rules:
  - id: R-01
    text: Two players, Red and Blue, each start with a hand of 3 cards from the shuffled deck.
  - id: R-02
    text: >-
      Each round both players choose a card of their hand in secret, then reveal them
      together; the higher value scores a point, equal values score nothing.
  - id: R-03
    text: >-
      Played cards go to the discard pile; then each player draws back up to 3 cards. An empty
      deck is rebuilt from the shuffled discard pile.
  - id: R-04
    text: The first player with 3 points wins at once.
  - id: R-05
    text: After 7 rounds the player with more points wins; equal points are a draw.
"""

CARDS = """\
__SCHEMA__
# The cards. `id` names a card in code (@gold); `copies: 4` makes four cards, copper#1 to
# copper#4. Any other key is a property that code reads (c.value). 12 cards in all.

# The properties every card carries, with their types (int, text, bool): a misspelt key
# (`vlaue: 3`), a missing one or a value of the wrong type is then an error that names it.
properties:
  cards: {value: int}

cards:
  - {id: copper, name: Copper, value: 1, copies: 4}
  - {id: silver, name: Silver, value: 2, copies: 4}
  - {id: gold,   name: Gold,   value: 3, copies: 3}
  - {id: crown,  name: Crown,  value: 5}
"""

COMPONENTS = """\
__SCHEMA__
# Zones are piles of cards; variables hold numbers, texts or lists. Each says who may see it,
# and the engine enforces it: a player or a bot is only ever given what it may know.
zones:
  deck:    {visibility: hidden, initial: all}   # face down; every card starts here
  discard: {visibility: public}                 # face up
  hand:    {per: role, visibility: owner}       # hand[red] and hand[blue], each seen by its owner

variables:
  points: {per: role, initial: 0}               # points[red] and points[blue], public

functions:
  # A function is a pure expression with typed parameters, usable in any code.
  beats:
    params: {a: card, b: card}
    returns: "a.value > b.value"
"""

FLOW = """\
__SCHEMA__
# What happens, written in the effect language (rulekit's docs/effect-language.md).
procedures:
  # Draw up to cards_in_hand cards; an empty deck is rebuilt from the discard pile (R-03).
  refill:
    params: {p: role}
    do: |
      while count(hand[p]) < cards_in_hand {
        if count(deck) == 0 {
          if count(discard) == 0 { break }
          move all from discard to deck
          shuffle deck
          log "The discard pile is shuffled into a new deck."
        }
        draw 1 from deck to hand[p]
      }

# Runs once, before the first round (R-01).
setup: |
  shuffle deck
  refill(red)
  refill(blue)

flow:
  rounds: round_limit              # at most this many rounds (a parameter of pack.yaml)
  phases:                          # every round runs its phases in this order
    # `simultaneous` asks both players at once: neither sees the other's card before both
    # have chosen (R-02). A `choose` suspends the game until the player answers.
    - id: showdown
      name: Showdown
      do: |
        simultaneous {
          let r = choose red one of hand[red] prompt "Play a card"
          let b = choose blue one of hand[blue] prompt "Play a card"
        }
        move r from hand[red] to discard
        move b from hand[blue] to discard
        log "Red plays {r}, Blue plays {b}."
        if beats(r, b) { points[red] += 1 }
        if beats(b, r) { points[blue] += 1 }

    - id: restock                  # R-03
      name: Restock
      do: |
        refill(red)
        refill(blue)

  # Checked after every change: the first condition that holds ends the game at once (R-04).
  end_when:
    - when: "points[red] >= target_points"
      winner: red
      reason: Red reaches the target.
    - when: "points[blue] >= target_points"
      winner: blue
      reason: Blue reaches the target.

  # Runs when the last round is over; a game that ends without `win` is a draw (R-05).
  after_rounds: |
    if points[red] > points[blue] { win red "Red has more points." }
    if points[blue] > points[red] { win blue "Blue has more points." }
"""

SCENARIOS = """\
__SCHEMA__
# Scenario tests: set a situation up, play given decisions, check the outcome. Each names the
# rules it covers. `rulekit test __FOLDER__` runs them; `-k WORD` runs those whose name has WORD.
scenarios:
  - name: The setup deals a hand to each player
    covers: [R-01]
    # no `start`: the game is set up as in play, and runs to its first decision
    expect:
      - "count(hand[red]) == cards_in_hand and count(hand[blue]) == cards_in_hand"
      - "count(deck) == 12 - 2 * cards_in_hand"
      - "round == 1 and phase == 'showdown'"

  - name: The higher card scores a point, then the hands are refilled
    covers: [R-02, R-03]
    start: {round: 1, phase: showdown}   # skip the setup; begin at this phase
    zones:                               # cards listed from the top; the rest stay in the deck
      hand[red]: [gold#1, copper#1]
      hand[blue]: [silver#1, copper#2]
    play:                                # one entry per decision point, in order
      - red: "gold#1"                    # an option's id, its label, or a unique prefix of it
        blue: "Silver"
    expect:                              # every expression must be true
      - "points[red] == 1 and points[blue] == 0"
      - "@gold#1 in discard and @silver#1 in discard"
      - "count(hand[red]) == cards_in_hand"

  # The most important test of a game with secrets: what each player may know. `sees` checks
  # a role's view (all the engine ever hands that player or a bot), `log_for` the lines of
  # its log, as printed; both are checked when the scenario's play is over.
  - name: A hand is its owner's secret until the card is played
    covers: [R-02]
    start: {round: 1, phase: showdown}
    zones:
      hand[red]: [gold#1, copper#1]
      hand[blue]: [silver#1, copper#2]
    play:
      - {red: "gold#1", blue: "silver#1"}
    sees:                                # by role: zones and variables as that role sees them
      blue:
        hand[red]: {count: 3, cards: hidden}    # how many cards, but none of them
        discard: [silver#1, gold#1]             # played cards are face up (from the top)
        points[red]: 1                          # a variable's value
      red:
        hand[red]: {count: 3, contains: [copper#1]}   # a player sees its own hand
    log_for:                             # the lines of a role's log
      blue:
        - "Red plays Gold (3), Blue plays Silver (2)."   # a line; * stands for any text
        - not_contains: [Copper]         # no line names a card still in Red's hand

  - name: Equal values score nothing
    covers: [R-02]
    start: {round: 1, phase: showdown}
    # two cards each (a hand is secret, so even a last card is asked for: the next play
    # entry would be its question)
    zones:
      hand[red]: [copper#1, gold#1]
      hand[blue]: [copper#2, silver#1]
    play:
      - {red: "copper#1", blue: "copper#2"}
    expect:
      - "points[red] == 0 and points[blue] == 0"

  - name: The first to the target wins at once
    covers: [R-04]
    start: {round: 2, phase: showdown}
    variables: {"points[blue]": 2}
    zones:
      hand[red]: [copper#1, copper#3]
      hand[blue]: [crown, copper#2]
    play:
      - {red: "copper#1", blue: "crown"}
    expect:
      - "finished and winner == blue"

  - name: After the last round more points win
    covers: [R-05]
    params: {round_limit: 1}             # a parameter set for this scenario only
    start: {round: 1, phase: showdown}
    zones:
      hand[red]: [gold#1, copper#1]
      hand[blue]: [silver#1, copper#2]
    play:
      - {red: "gold#1", blue: "silver#1"}
    expect:
      - "finished and winner == red"

  - name: Equal points after the last round are a draw
    covers: [R-05]
    params: {round_limit: 1}
    start: {round: 1, phase: showdown}
    zones:
      hand[red]: [copper#1, gold#1]
      hand[blue]: [copper#2, gold#2]
    play:
      - {red: "copper#1", blue: "copper#2"}
    expect:
      - "finished and winner == none"
"""

README = """\
# __NAME__

A rulekit content pack made with `rulekit new`: a small, complete two-player game to turn into
yours. Every file says in comments what it holds; change one thing at a time and run the
commands below after each change.

| file | what it holds |
| --- | --- |
| `pack.yaml` | the manifest: id, name, players (`red`, `blue`), parameters, the other files |
| `rules.yaml` | the rules, each with an id (`R-01`...) that scenarios name |
| `cards.yaml` | the cards and their properties |
| `components.yaml` | zones (piles of cards), variables, a function |
| `flow.yaml` | a procedure, the setup, the phases of a round, how the game ends |
| `scenarios/basics.yaml` | scenario tests, one or more per rule |
| `.schemas/` | the JSON Schemas of the files, for your editor (see below) |

__COMMANDS__
__EDITOR__"""

COMMANDS = """\
## Try it

From the folder that holds `__FOLDER__`:

```sh
rulekit validate __FOLDER__                 # check every file and every line of code
rulekit test __FOLDER__                     # run the scenarios, report the rules they cover
rulekit play __FOLDER__ --seat __ROLE__=human       # play against a bot
rulekit simulate __FOLDER__ -n 1000 --seed 1  # bot games: who wins, how often, how long
rulekit docs __FOLDER__ --out RULES.md      # the rules as a readable document
```
"""

EDITOR = """\
## Editor support

Each YAML file starts with a line such as

```yaml
# yaml-language-server: $schema=.schemas/pack.schema.json
```

which the YAML language server (VS Code's YAML extension, and others) reads to complete keys,
show what each means and mark mistakes as you type. The path is relative to the file, and the
schemas are copies in this pack's own `.schemas/` folder, made by `rulekit new` from the
rulekit that made the pack, so they resolve wherever the pack is, with or without rulekit's
sources at hand. After upgrading rulekit, copy its `schemas/*.schema.json` over them again.
"""

TEMPLATE: dict[str, str] = {
    "pack.yaml": PACK,
    "rules.yaml": RULES,
    "cards.yaml": CARDS,
    "components.yaml": COMPONENTS,
    "flow.yaml": FLOW,
    "scenarios/basics.yaml": SCENARIOS,
}
