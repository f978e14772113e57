"""Roundforest component data: the forest, its tiles, chips, item tokens, the fairy board
and the twelve characters.

Every printed number and every reconstruction lives here; docs/roundforest.md gives the
reason for each reconstructed value. The forest is a square grid of ``GRID`` x ``GRID``
cells (6 x 6 for 3-4 players, 5 x 5 for 2 players) whose four corners hold the backpacks;
every other cell holds one octagon tile. Cell ids are ``row * MAX_GRID + col`` in a 6 x 6
frame for every player count, so action and observation ids never depend on the
configuration (cells outside a 5 x 5 forest simply never hold a tile).
"""

from __future__ import annotations

from dataclasses import dataclass

PLAYER_COUNTS = (2, 3, 4)
# Not printed: where an env truncates a game when its ``max_steps`` option is not given (no
# winner). Random play can reach positions where nobody can ever win (docs/roundforest.md,
# "Deadlocks"); games between heuristic players take a median of 125-477 actions, and most
# random games that end at all end within 2,000 (median 800-1,400 with default options).
DEFAULT_MAX_STEPS = 3_000
ROUND_CAP = 10_000  # the round counter shown in observations stops here

# --- the forest -------------------------------------------------------------------------------
MAX_GRID = 6
NUM_CELLS = MAX_GRID * MAX_GRID  # 36 cell ids for every configuration
STEP = ((-1, 0), (0, 1), (1, 0), (0, -1))  # (drow, dcol) of each side N, E, S, W
# The near_* observation blocks: a route of d moves (d < MOVES_CAP) is stored as
# NEAR_SCALE / (1 + d), rounded, and observed as 1 / (1 + d); a longer route or none as 0.
MOVES_CAP = 12
NEAR_SCALE = 120
CW, CCW = 1, -1  # rotation directions (the arrows printed on a tile)


def grid_size(num_players: int) -> int:
    """The forest's side: 5 x 5 without its corners (21 tiles) for 2 players, else 6 x 6
    without its corners (32 tiles)."""
    return 5 if num_players == 2 else 6


def cell_id(row: int, col: int) -> int:
    return row * MAX_GRID + col


def cell_rc(cell: int) -> tuple[int, int]:
    return divmod(cell, MAX_GRID)


def cell_name(cell: int) -> str:
    r, c = cell_rc(cell)
    return f"{'ABCDEF'[r]}{c + 1}"


def corners(num_players: int) -> tuple[int, ...]:
    """The four corner cells, clockwise from the top left: where backpacks lie."""
    g = grid_size(num_players) - 1
    return (cell_id(0, 0), cell_id(0, g), cell_id(g, g), cell_id(g, 0))


def backpack_corner(num_players: int, seat: int) -> int:
    """Seat order follows the corners clockwise; with 2 players the seats face each other
    diagonally (top left and bottom right), so neither starts nearer the other."""
    cs = corners(num_players)
    return cs[(0, 2)[seat]] if num_players == 2 else cs[seat]


def tile_cells(num_players: int) -> tuple[int, ...]:
    """Every cell that holds a tile (row by row): 21 or 32 of them."""
    g = grid_size(num_players)
    cs = set(corners(num_players))
    return tuple(cell_id(r, c) for r in range(g) for c in range(g) if cell_id(r, c) not in cs)


# The four wells lie on fixed cells. Reconstructed: each set is symmetric under a quarter
# turn of the forest, so every corner (backpack) has the same distances to the wells.
WELL_CELLS = {
    6: (cell_id(1, 2), cell_id(2, 4), cell_id(4, 3), cell_id(3, 1)),
    5: (cell_id(1, 2), cell_id(2, 3), cell_id(3, 2), cell_id(2, 1)),
}


def well_cells(num_players: int) -> tuple[int, ...]:
    return WELL_CELLS[grid_size(num_players)]


# --- the octagon tiles -------------------------------------------------------------------------
@dataclass(frozen=True)
class TilePattern:
    """The octagon pairs of one tile in its printed orientation, side by side N, E, S, W:
    ``inner[d]``/``outer[d]`` are True where the octagon is filled (the tile one / two away
    in that direction may be entered). ``turn``: CW (+1) or CCW (-1), the printed arrows."""

    name: str
    inner: tuple[bool, ...]     # four: N, E, S, W
    outer: tuple[bool, ...]
    turn: int


def _pattern(name: str, code: str, turn: int) -> TilePattern:
    """``code``: four two-letter groups N E S W, each "io" with "1" filled and "0" empty."""
    groups = code.split()
    return TilePattern(name, tuple(g[0] == "1" for g in groups), tuple(g[1] == "1" for g in groups), turn)


# Reconstructed: seven designs of four tiles each (two turning each way) for the 28 tiles
# without a well, and one design for the 4 well tiles. Every design opens 4-6 of its eight
# octagons, at least one in each of two perpendicular directions, so a piece is rarely stuck.
DESIGNS = (
    # name       N   E   S   W
    ("cross",   "11 10 11 10"),
    ("star",    "11 11 00 01"),
    ("hook",    "11 01 10 00"),
    ("leaper",  "01 11 01 10"),
    ("zigzag",  "10 01 11 01"),
    ("fork",    "11 00 10 11"),
    ("wide",    "01 10 01 10"),
)
WELL_DESIGN = ("well", "10 10 10 10")

TILES: tuple[TilePattern, ...] = tuple(
    [_pattern(f"{name}-{i + 1}", code, CW if i % 2 == 0 else CCW)
     for name, code in DESIGNS for i in range(4)]
    + [_pattern(f"{WELL_DESIGN[0]}-{i + 1}", WELL_DESIGN[1], CW if i % 2 == 0 else CCW)
       for i in range(4)])
NUM_TILES = len(TILES)  # 32
WELL_TILES = tuple(range(28, 32))
PLAIN_TILES = tuple(range(28))


def tiles_in_play(num_players: int) -> int:
    return 21 if num_players == 2 else 32


def open_sides(tile: int, orientation: int) -> tuple[tuple[bool, ...], tuple[bool, ...]]:
    """(inner, outer) by current side N, E, S, W for a tile turned ``orientation`` quarter
    turns clockwise from its printed position: side d now shows printed side d - o."""
    p = TILES[tile]
    o = orientation % 4
    return (tuple(p.inner[(d - o) % 4] for d in range(4)),
            tuple(p.outer[(d - o) % 4] for d in range(4)))


# --- chips, coins, apples -------------------------------------------------------------------------
NO_CHIP, BLUE, YELLOW, RED = 0, 1, 2, 3
CHIPS = {BLUE: 24, YELLOW: 16, RED: 12}  # 52 colour chips
COPPER_SUPPLY = 24
SILVER_SUPPLY = 12
APPLE_SUPPLY = 12
COMPASSES_EACH = 2
APPLES_TO_WIN = 3

# --- item tokens -----------------------------------------------------------------------------------
# Light and heavy items as the rulebook lists them; the coin item is printed as copper-coin
# and silver-coin tokens. The split of the 39 tokens is reconstructed (docs/roundforest.md).
ITEM_NAMES = (
    # heavy (orange glow)
    "anvil", "barrel", "saddle", "treasure chest", "stone",
    # light, useful for characters (red exclamation mark)
    "cross", "key", "sword", "magic potion",
    # light, other
    "helmet", "horseshoe", "hat", "cheese", "cauldron", "jug", "spoon", "mortar",
    "mushroom", "provision flask", "boot",
    # coin tokens
    "copper coin", "silver coin",
)
NUM_ITEMS = len(ITEM_NAMES)  # 22 kinds
(ANVIL, BARREL, SADDLE, CHEST, STONE, CROSS, KEY, SWORD, POTION) = range(9)
COPPER_TOKEN, SILVER_TOKEN = 20, 21
HEAVY = frozenset({ANVIL, BARREL, SADDLE, CHEST, STONE})
COIN_TOKENS = frozenset({COPPER_TOKEN, SILVER_TOKEN})
IS_HEAVY = tuple(k in HEAVY for k in range(NUM_ITEMS))
# The heavy kinds come first: a backpack's heavy items are backpack[p, HEAVY_KINDS].
HEAVY_KINDS = slice(ANVIL, STONE + 1)
assert HEAVY == set(range(NUM_ITEMS)[HEAVY_KINDS])
ITEM_COUNTS = (
    2, 2, 2, 2, 2,        # heavy: 10
    2, 2, 2, 2,           # cross, key, sword, magic potion: 8
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  # eleven other light items: 11
    6, 4,                 # copper-coin and silver-coin tokens: 10
)
assert sum(ITEM_COUNTS) == 39 and len(ITEM_COUNTS) == NUM_ITEMS
BACKPACK_ITEMS = 3  # "A backpack has room for at most 3 items, of which at most one may be heavy"
BACKPACK_HEAVY = 1


def item_counts(no_silver: bool) -> tuple[int, ...]:
    """Tokens of each kind in the blue bag's game (the variant removes the silver-coin ones)."""
    counts = list(ITEM_COUNTS)
    if no_silver:
        counts[SILVER_TOKEN] = 0
    return tuple(counts)


# --- the fairy board -------------------------------------------------------------------------------
FAIRY_ROWS = 3
FAIRY_SLOTS = 3
FAIRY_COST = (2, 1, 0)  # copper for the top, middle, bottom row

# --- characters ------------------------------------------------------------------------------------
FRIENDLY, HOSTILE, HELPFUL = "friendly", "hostile", "helpful"


@dataclass(frozen=True)
class Task:
    """One task printed on a card: hand over ``give`` items and ``copper``/``silver``
    coins, while also holding ``need`` items (kept); the reward is the item ``reward_item``
    (from the blue bag, if one is left) and/or ``apples`` golden apples from the supply."""

    give: tuple[int, ...] = ()
    copper: int = 0
    silver: int = 0
    need: tuple[int, ...] = ()
    without: tuple[int, ...] = ()  # items the player must not hold (the friendly "instead")
    reward_item: int = -1
    apples: int = 0


@dataclass(frozen=True)
class Character:
    name: str
    kind: str
    upper: Task | None = None
    lower: Task | None = None


CHARACTERS = (
    # Friendly: upper = the item's reward; lower = the same gift while holding the reward
    # item already, which pays a golden apple "instead".
    Character("Blacksmith", FRIENDLY, Task(give=(ANVIL,), without=(SWORD,), reward_item=SWORD),
              Task(give=(ANVIL,), need=(SWORD,), apples=1)),
    Character("Innkeeper", FRIENDLY, Task(give=(BARREL,), without=(POTION,), reward_item=POTION),
              Task(give=(BARREL,), need=(POTION,), apples=1)),
    Character("Sculptor", FRIENDLY, Task(give=(STONE,), without=(CROSS,), reward_item=CROSS),
              Task(give=(STONE,), need=(CROSS,), apples=1)),
    # Hostile: upper drives the character away; lower tricks it for a golden apple.
    Character("Witch", HOSTILE, Task(give=(CROSS,)), Task(give=(CROSS, POTION), apples=1)),
    Character("Bandit", HOSTILE, Task(copper=2), Task(copper=2, give=(SWORD,), apples=1)),
    Character("Devil", HOSTILE, Task(silver=1), Task(silver=1, give=(CROSS,), apples=1)),
    # Helpful
    Character("Prince", HELPFUL),
    Character("Merchant", HELPFUL),
    Character("Goblin", HELPFUL),
    Character("Beggar", HELPFUL),
    Character("Unicorn", HELPFUL),
    Character("Forest Spirit", HELPFUL),
)
NUM_CHARACTERS = len(CHARACTERS)  # 12
CHARACTER_NAMES = tuple(c.name for c in CHARACTERS)
(BLACKSMITH, INNKEEPER, SCULPTOR, WITCH, BANDIT, DEVIL,
 PRINCE, MERCHANT, GOBLIN, BEGGAR, UNICORN, SPIRIT) = range(NUM_CHARACTERS)
MERCHANT_MAX_SALES = 3
BEGGAR_FEE = 1          # copper
PRINCE_DRAWS = 3

# --- the wells -------------------------------------------------------------------------------------
WELL_ITEMS_IN, WELL_COPPER_OUT = 2, 2     # 2 items -> 2 copper
WELL_COPPER_IN = 3                        # 3 copper -> 1 silver
# 1 silver -> 1 golden apple


# --- movement geometry ------------------------------------------------------------------------------
def in_forest(num_players: int, row: int, col: int) -> bool:
    """Whether (row, col) holds a tile (inside the forest and not a backpack corner)."""
    g = grid_size(num_players)
    if not (0 <= row < g and 0 <= col < g):
        return False
    return cell_id(row, col) not in corners(num_players)


def pattern_targets(num_players: int, cell: int, tile: int, orientation: int,
                    compass: bool = False) -> list[int]:
    """Tiles the octagons of ``tile`` (lying on ``cell``, turned ``orientation``) let a
    piece reach, ignoring what lies on them: the adjacent tile in each direction whose inner
    octagon is filled, the tile two away in each direction whose outer octagon is filled
    (whatever the inner one and the tile between show), never off the forest or into a
    backpack. ``compass``: every octagon counts as filled."""
    inner, outer = open_sides(tile, orientation)
    r, c = cell_rc(cell)
    out = []
    for d, (dr, dc) in enumerate(STEP):
        if (compass or inner[d]) and in_forest(num_players, r + dr, c + dc):
            out.append(cell_id(r + dr, c + dc))
        if (compass or outer[d]) and in_forest(num_players, r + 2 * dr, c + 2 * dc):
            out.append(cell_id(r + 2 * dr, c + 2 * dc))
    return out


def start_targets(num_players: int, seat: int) -> list[int]:
    """The two tiles next to a seat's backpack (its first move)."""
    r, c = cell_rc(backpack_corner(num_players, seat))
    return [cell_id(r + dr, c + dc) for dr, dc in STEP if in_forest(num_players, r + dr, c + dc)]
