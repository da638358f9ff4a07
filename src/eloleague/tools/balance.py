"""Split players into teams of even strength (docs/rule-sets.md: a side's strength is the
mean of its players' ratings; the rule set's method gives the expected score of one mean against
another, ``eloleague.engine.methods.expected_score``).

The objective is the *spread*: the strongest team's mean minus the weakest team's mean. For two
teams, minimising it makes the expected score of team 1 against team 2 as close to one half as
possible, since E is increasing in the difference of the means.

The venue: when a team will play at home under a rule set with a ``home_advantage``, its rating
counts that many more points in the expected score (docs/rule-sets.md, "Home advantage and
margins"). ``bonus`` gives each team those points; a team's *strength* is then its mean plus its
bonus, and the spread is that of the strengths: the split that evens the game as it will be played
gives the home team the weaker players (docs/tools.md, "balance").

Search:

- two teams, up to ``exact_limit`` players (default 24): exact, by meet-in-the-middle over the
  groups that must play together and the chains of players that must play apart;
- three or more teams, up to ``exact_limit`` players: exact branch and bound (teams of equal size
  are interchangeable: symmetry broken), within a work budget; if the budget runs out the result
  says so and gives its bound;
- beyond: a heuristic (sorted blocks dealt strongest-to-weakest team, then improving swaps) with a
  stated bound: ``bound`` is how far above the optimum spread the answer can be at most. Without
  constraints and with teams of one size, dealing the players by blocks of ``teams`` sorted ratings
  guarantees a spread of at most the largest rating range inside a block divided by the team size.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from eloleague.i18n import Text
from eloleague.tools.players import ToolError

EPS = 1e-9


@dataclass(frozen=True, slots=True)
class Team:
    """A team: its players (strongest first) with their ratings, and its mean rating."""

    players: tuple[str, ...]
    ratings: tuple[float, ...]
    mean: float


@dataclass(frozen=True, slots=True)
class Balance:
    """A split: the teams (as sized), the spread of their strengths, and how sure we are of it.

    A team's strength is its mean plus its ``bonus`` (the venue's points; all 0 without one, when
    the spread is that of the means). ``expected`` is the expected score of team 1 against team 2
    (two teams) or of the strongest team against the weakest (more teams), as the rule set's
    method computes it from the strengths. ``exact`` says the spread is proven minimal;
    otherwise the optimum is at least ``spread - bound``.
    """

    teams: tuple[Team, ...]
    spread: float
    expected: float
    exact: bool
    bound: float
    method: str
    bonus: tuple[float, ...] = ()

    @property
    def advantages(self) -> tuple[float, ...]:
        """Each team's bonus (0 for every team when there is none)."""
        return self.bonus or (0.0,) * len(self.teams)

    @property
    def strengths(self) -> tuple[float, ...]:
        """Each team's mean plus its bonus."""
        return tuple(t.mean + b for t, b in zip(self.teams, self.advantages, strict=True))


@dataclass
class _Unit:
    """Players who must play together (one player when no constraint binds him)."""

    members: list[str]
    total: float

    @property
    def count(self) -> int:
        return len(self.members)


def default_sizes(players: int, teams: int) -> list[int]:
    """Team sizes as even as possible, the larger teams first (7 players, 2 teams: 4 and 3)."""
    base, extra = divmod(players, teams)
    return [base + 1 if i < extra else base for i in range(teams)]


def _groups(pairs: Iterable[Sequence[str]], names: set[str], what: str) -> list[list[str]]:
    out = []
    for group in pairs:
        g = list(group)
        for name in g:
            if name not in names:
                raise ToolError(
                    Text.of(
                        'player "{name}" (in --{what}) is not among the players to split',
                        name=name,
                        what=what,
                    )
                )
        if len(g) < 2:
            raise ToolError(
                Text.of("--{what} needs at least two players, got: {g}", what=what, g=", ".join(g))
            )
        out.append(g)
    return out


def _units(
    ratings: Mapping[str, float], together: list[list[str]]
) -> tuple[list[_Unit], dict[str, int]]:
    parent = {p: p for p in ratings}

    def find(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for group in together:
        for other in group[1:]:
            parent[find(other)] = find(group[0])
    by_root: dict[str, list[str]] = {}
    for p in ratings:
        by_root.setdefault(find(p), []).append(p)
    units = [_Unit(m, sum(ratings[p] for p in m)) for m in by_root.values()]
    units.sort(key=lambda u: (-u.count, -u.total / u.count, u.members[0]))
    index = {p: i for i, u in enumerate(units) for p in u.members}
    return units, index


def _spread(sums: Sequence[float], sizes: Sequence[int], bonus: Sequence[float]) -> float:
    strengths = [s / n + b for s, n, b in zip(sums, sizes, bonus, strict=True)]
    return max(strengths) - min(strengths)


def balance(
    ratings: Mapping[str, float],
    *,
    teams: int | None = None,
    sizes: Sequence[int] | None = None,
    together: Iterable[Sequence[str]] = (),
    apart: Iterable[Sequence[str]] = (),
    expected_score: Callable[[float, float], float],
    bonus: Sequence[float] = (),
    exact_limit: int = 24,
    budget: int = 400_000,
) -> Balance:
    """Split the players of ``ratings`` (name -> rating) into ``teams`` teams of even strength.

    ``expected_score(a, b)`` is the expected score of a team of mean rating ``a`` against one
    of mean ``b`` (the rule set's method's). ``sizes`` fixes each team's size (default: as even as possible); every group of
    ``together`` plays in one team; the players of each group of ``apart`` play in different
    teams. ``bonus``: the rating points each team adds to its mean in the expected score (the
    venue's, :func:`eloleague.engine.methods.venue_points`; empty: none), one per team.
    Impossible requests raise :class:`ToolError` saying why.
    """
    names = set(ratings)
    n = len(ratings)
    if teams is None:
        teams = len(sizes) if sizes is not None else 2
    if teams < 2:
        raise ToolError(Text.of("--teams must be at least 2, got {n}", n=teams))
    if sizes is None:
        if n < teams:
            raise ToolError(Text.of("{n} players cannot make {t} teams", n=n, t=teams))
        sizes = default_sizes(n, teams)
    else:
        sizes = list(sizes)
        if len(sizes) != teams:
            raise ToolError(
                Text.of(
                    "--sizes gives {n} team sizes but --teams asks for {t} teams",
                    n=len(sizes),
                    t=teams,
                )
            )
        if any(s < 1 for s in sizes):
            raise ToolError(
                Text.of(
                    "every team needs at least one player (--sizes {s})",
                    s=",".join(map(str, sizes)),
                )
            )
        if sum(sizes) != n:
            raise ToolError(
                Text.of(
                    "the team sizes {s} add up to {total}, but {n} players are to be split",
                    s=",".join(map(str, sizes)),
                    total=sum(sizes),
                    n=n,
                )
            )
    if bonus and len(bonus) != teams:
        raise ToolError(
            Text.of(
                "the team at home is one of the two teams of a game, but there are {t} teams",
                t=teams,
            )
        )
    points = [float(b) for b in bonus] if bonus else [0.0] * teams
    together_g = _groups(together, names, "together")
    apart_g = _groups(apart, names, "apart")
    units, index = _units(ratings, together_g)
    biggest = max(sizes)
    for u in units:
        if u.count > biggest:
            raise ToolError(
                Text.plural(
                    "{players} must play together, that is {n} players, but the largest team "
                    "has {count} place",
                    "{players} must play together, that is {n} players, but the largest team "
                    "has {count} places",
                    biggest,
                    players=", ".join(sorted(u.members)),
                    n=u.count,
                )
            )
    conflicts: set[tuple[int, int]] = set()
    for group in apart_g:
        if len(group) > teams:
            raise ToolError(
                Text.of(
                    "{players} must all play apart, but there are only {t} teams",
                    players=", ".join(group),
                    t=teams,
                )
            )
        for a, b in itertools.combinations(group, 2):
            ua, ub = index[a], index[b]
            if ua == ub:
                raise ToolError(
                    Text.of('"{a}" and "{b}" are asked to play both together and apart', a=a, b=b)
                )
            conflicts.add((min(ua, ub), max(ua, ub)))

    search = _Search(units, sizes, conflicts, budget, points)
    if n <= exact_limit and teams == 2:
        assignment = _two_teams(units, sizes, conflicts, points[0] - points[1])
        exact, method = True, "meet-in-the-middle"
        bound = 0.0
    else:
        assignment, bound = search.heuristic()
        exact, method = False, "heuristic"
        if n > exact_limit and assignment is None:
            # The greedy deal can miss a split that respects the constraints: search for one.
            assignment, _ = search.branch_and_bound(None)
            bound = float("inf")
        if n <= exact_limit:
            assignment, exact = search.branch_and_bound(assignment)
            method = "branch-and-bound"
            if exact:
                bound = 0.0
            elif assignment is not None:
                spread = _spread_of(assignment, units, sizes, points)
                bound = min(bound, spread - search.root_bound())
    if assignment is None:
        raise ToolError(
            Text.of(
                "no split into teams of {s} respects the --together and --apart constraints",
                s=",".join(map(str, sizes)),
            )
        )
    return _result(
        assignment, units, sizes, ratings, expected_score, exact, max(bound, 0.0), method, points
    )


def _spread_of(
    assignment: Sequence[int],
    units: Sequence[_Unit],
    sizes: Sequence[int],
    bonus: Sequence[float],
) -> float:
    sums = [0.0] * len(sizes)
    for u, t in zip(units, assignment, strict=True):
        sums[t] += u.total
    return _spread(sums, sizes, bonus)


def _result(
    assignment: Sequence[int],
    units: Sequence[_Unit],
    sizes: Sequence[int],
    ratings: Mapping[str, float],
    expected_score: Callable[[float, float], float],
    exact: bool,
    bound: float,
    method: str,
    bonus: Sequence[float],
) -> Balance:
    members: list[list[str]] = [[] for _ in sizes]
    for u, t in zip(units, assignment, strict=True):
        members[t].extend(u.members)
    out = []
    for m in members:
        m.sort(key=lambda p: (-ratings[p], p))
        out.append(
            Team(tuple(m), tuple(ratings[p] for p in m), sum(ratings[p] for p in m) / len(m))
        )
    strengths = [t.mean + b for t, b in zip(out, bonus, strict=True)]
    if len(out) == 2:
        p = expected_score(strengths[0], strengths[1])
    else:
        p = expected_score(max(strengths), min(strengths))
    shown = tuple(bonus) if any(bonus) else ()
    spread = max(strengths) - min(strengths)
    return Balance(tuple(out), spread, p, exact, bound, method, shown)


# Two teams: exact by meet-in-the-middle ---------------------------------------------------


def _two_teams(
    units: Sequence[_Unit], sizes: Sequence[int], conflicts: set[tuple[int, int]], lead: float
) -> list[int] | None:
    """Each chain of "apart" units is two-coloured: it has two ways to sit, a free unit two
    (team 1 or not). Choose one option per component so that team 1 has ``sizes[0]`` players
    and a sum as close as possible to its fair share: every combination of each half of the
    components is listed, the other half is searched by bisection. ``lead`` is team 1's bonus
    minus team 2's: team 1's strength minus team 2's is (sum1 - target) (1/n1 + 1/n2), so the
    fair share is lowered by ``lead`` n1 n2 / (n1 + n2)."""
    n1 = sizes[0]
    total = sum(u.total for u in units)
    count = sum(u.count for u in units)
    target = n1 * total / count - lead * n1 * sizes[1] / count
    adj: dict[int, list[int]] = {i: [] for i in range(len(units))}
    for a, b in conflicts:
        adj[a].append(b)
        adj[b].append(a)
    colour: dict[int, int] = {}
    options: list[tuple[tuple[int, float, int], tuple[int, float, int]]] = []
    comp_members: list[list[int]] = []
    for start in range(len(units)):
        if start in colour:
            continue
        colour[start] = 0
        stack, comp = [start], []
        while stack:
            x = stack.pop()
            comp.append(x)
            for y in adj[x]:
                if y not in colour:
                    colour[y] = 1 - colour[x]
                    stack.append(y)
                elif colour[y] == colour[x]:
                    raise ToolError(
                        Text.of(
                            "the --apart constraints cannot all hold with two teams "
                            "(a circle of an odd number of players must be split)"
                        )
                    )
        c0 = [x for x in comp if colour[x] == 0]
        c1 = [x for x in comp if colour[x] == 1]
        opt0 = (sum(units[x].count for x in c0), sum(units[x].total for x in c0), 0)
        opt1 = (sum(units[x].count for x in c1), sum(units[x].total for x in c1), 1)
        options.append((opt0, opt1))
        comp_members.append(comp)
        # colour 0 in team 1 is option 0; colour 1 in team 1 is option 1.

    symmetric = sizes[0] == sizes[1] and lead == 0  # then the two teams can be swapped
    half = len(options) // 2
    left, right = options[:half], options[half:]

    def enumerate_half(
        opts: Sequence[tuple[tuple[int, float, int], ...]], fix_first: bool
    ) -> dict[int, list[tuple[float, int]]]:
        table: dict[int, list[tuple[float, int]]] = {}
        choices = [(0,) if (fix_first and i == 0) else (0, 1) for i in range(len(opts))]
        for combo in itertools.product(*choices):
            c, s, bits = 0, 0.0, 0
            for i, pick in enumerate(combo):
                cc, ss, _ = opts[i][pick]
                c += cc
                s += ss
                bits |= pick << i
            table.setdefault(c, []).append((s, bits))
        for v in table.values():
            v.sort()
        return table

    # Symmetry: with equal sizes, the first component's option 0 can be fixed (swap the teams).
    lt = enumerate_half(left, symmetric and bool(left))
    rt = enumerate_half(right, symmetric and not left)
    best: tuple[float, int, int] | None = None
    for c_left, entries in lt.items():
        need = n1 - c_left
        candidates = rt.get(need)
        if not candidates:
            continue
        sums_r = [s for s, _ in candidates]
        for s_left, bits_left in entries:
            j = bisect.bisect_left(sums_r, target - s_left)
            for k in (j - 1, j):
                if 0 <= k < len(candidates):
                    gap = abs(s_left + candidates[k][0] - target)
                    if best is None or gap < best[0] - EPS:
                        best = (gap, bits_left, candidates[k][1])
    if best is None:
        return None
    _, bits_left, bits_right = best
    picks = [(bits_left >> i) & 1 for i in range(len(left))]
    picks += [(bits_right >> i) & 1 for i in range(len(right))]
    assignment = [1] * len(units)
    for comp, pick in zip(comp_members, picks, strict=True):
        for x in comp:
            assignment[x] = 0 if colour[x] == pick else 1
    return assignment


# Three or more teams, and the heuristic -----------------------------------------------------


class _Search:
    """Branch and bound over units (largest groups first), and the heuristic behind it."""

    def __init__(
        self,
        units: Sequence[_Unit],
        sizes: Sequence[int],
        conflicts: set[tuple[int, int]],
        budget: int,
        bonus: Sequence[float],
    ) -> None:
        self.units = list(units)
        self.sizes = list(sizes)
        self.k = len(sizes)
        self.budget = budget
        self.bonus = list(bonus)
        self.apart: list[set[int]] = [set() for _ in units]
        for a, b in conflicts:
            self.apart[a].add(b)
            self.apart[b].add(a)
        # Individual ratings still to place after depth d, sorted, for the relaxation bound.
        self.rest: list[list[float]] = []
        self.prefix: list[list[float]] = []
        for d in range(len(units) + 1):
            values = sorted(u.total / u.count for u in units[d:] for _ in range(u.count))
            self.rest.append(values)
            acc = [0.0]
            for v in values:
                acc.append(acc[-1] + v)
            self.prefix.append(acc)

    def bound(self, depth: int, sums: Sequence[float], counts: Sequence[int]) -> float:
        """A lower bound on the spread of any completion (each team filled with the lowest or
        highest remaining ratings, ignoring groups and the other teams)."""
        acc = self.prefix[depth]
        total = acc[-1]
        m = len(self.rest[depth])
        lo_max, hi_min = -float("inf"), float("inf")
        for t in range(self.k):
            r = self.sizes[t] - counts[t]
            lo = (sums[t] + acc[r]) / self.sizes[t] + self.bonus[t]
            hi = (sums[t] + total - acc[m - r]) / self.sizes[t] + self.bonus[t]
            lo_max = max(lo_max, lo)
            hi_min = min(hi_min, hi)
        return max(0.0, lo_max - hi_min)

    def root_bound(self) -> float:
        """A lower bound on the optimum: the relaxation at the root and, when every rating is a
        whole number and the teams have one size and no bonus, the fact that team sums are whole
        numbers (the spread is 0 only if the total divides evenly)."""
        value = self.bound(0, [0.0] * self.k, [0] * self.k)
        totals = [u.total for u in self.units]
        whole = all(float(t).is_integer() for t in totals) and not any(self.bonus)
        if len(set(self.sizes)) == 1 and whole and round(sum(totals)) % self.k:
            value = max(value, 1.0 / self.sizes[0])
        return value

    def _fits(self, unit: int, team: int, counts: Sequence[int], placed: Sequence[int]) -> bool:
        if counts[team] + self.units[unit].count > self.sizes[team]:
            return False
        return all(placed[o] != team for o in self.apart[unit] if o < unit)

    def branch_and_bound(self, start: list[int] | None) -> tuple[list[int] | None, bool]:
        """The exact optimum, starting from a known split; ``False`` if the budget ran out."""
        n_units = len(self.units)
        best = [_spread_of(start, self.units, self.sizes, self.bonus) if start else float("inf")]
        best_assign = [list(start) if start else None]
        sums = [0.0] * self.k
        counts = [0] * self.k
        placed = [-1] * n_units
        nodes = [0]
        floor = self.root_bound()

        def dfs(d: int) -> bool:
            nodes[0] += 1
            if nodes[0] > self.budget:
                return False
            if d == n_units:
                value = _spread(sums, self.sizes, self.bonus)
                if value < best[0] - EPS:
                    best[0] = value
                    best_assign[0] = list(placed)
                return True
            if best[0] <= floor + EPS or self.bound(d, sums, counts) >= best[0] - EPS:
                return True
            unit = self.units[d]
            seen_empty: set[tuple[int, float]] = set()
            order = sorted(range(self.k), key=lambda t: sums[t] / self.sizes[t] + self.bonus[t])
            for t in order:
                if counts[t] == 0:
                    kind = (self.sizes[t], self.bonus[t])
                    if kind in seen_empty:
                        continue  # an empty team of the same size and bonus was already tried
                    seen_empty.add(kind)
                if not self._fits(d, t, counts, placed):
                    continue
                sums[t] += unit.total
                counts[t] += unit.count
                placed[d] = t
                ok = dfs(d + 1)
                sums[t] -= unit.total
                counts[t] -= unit.count
                placed[d] = -1
                if not ok:
                    return False
            return True

        finished = dfs(0) or best[0] <= floor + EPS
        return best_assign[0], finished

    def heuristic(self) -> tuple[list[int] | None, float]:
        """Deal units strongest first to the team with the lowest mean that can take them, then
        swap units of equal size between teams while the spread shrinks. Returns the split and
        an a-priori bound on its distance to the optimum (``inf`` when none is known)."""
        n_units = len(self.units)
        order = sorted(
            range(n_units),
            key=lambda i: (-self.units[i].count, -self.units[i].total / self.units[i].count),
        )
        singles = all(u.count == 1 for u in self.units) and not any(self.apart)
        equal = len(set(self.sizes)) == 1 and not any(self.bonus)
        sums = [0.0] * self.k
        counts = [0] * self.k
        placed = [-1] * n_units
        a_priori = float("inf")
        if singles and equal:
            # Blocks of k sorted ratings, strongest of the block to the weakest team.
            ratings = [self.units[i].total for i in order]
            size = self.sizes[0]
            widest = 0.0
            for b in range(size):
                block = order[b * self.k : (b + 1) * self.k]
                widest = max(widest, ratings[b * self.k] - ratings[b * self.k + len(block) - 1])
                teams = sorted(range(self.k), key=lambda t: sums[t])
                for i, t in zip(block, teams, strict=True):
                    placed[i] = t
                    sums[t] += self.units[i].total
                    counts[t] += 1
            a_priori = widest / size
        else:
            for i in order:
                choices = [t for t in range(self.k) if self._fits_any(i, t, counts, placed)]
                if not choices:
                    return None, float("inf")
                t = min(
                    choices,
                    key=lambda t: (
                        sums[t] / self.sizes[t] + self.bonus[t],
                        counts[t] - self.sizes[t],
                    ),
                )
                placed[i] = t
                sums[t] += self.units[i].total
                counts[t] += self.units[i].count
        self._improve(placed, sums)
        return placed, a_priori

    def _fits_any(self, unit: int, team: int, counts: Sequence[int], placed: Sequence[int]) -> bool:
        if counts[team] + self.units[unit].count > self.sizes[team]:
            return False
        return all(placed[o] != team for o in self.apart[unit])

    def _improve(self, placed: list[int], sums: list[float]) -> None:
        n_units = len(self.units)
        current = _spread(sums, self.sizes, self.bonus)
        improved = True
        while improved and current > EPS:
            improved = False
            for i in range(n_units):
                for j in range(i + 1, n_units):
                    ti, tj = placed[i], placed[j]
                    ui, uj = self.units[i], self.units[j]
                    if ti == tj or ui.count != uj.count:
                        continue
                    if any(placed[o] == tj for o in self.apart[i] if o != j) or any(
                        placed[o] == ti for o in self.apart[j] if o != i
                    ):
                        continue
                    sums[ti] += uj.total - ui.total
                    sums[tj] += ui.total - uj.total
                    value = _spread(sums, self.sizes, self.bonus)
                    if value < current - EPS:
                        placed[i], placed[j] = tj, ti
                        current = value
                        improved = True
                    else:
                        sums[ti] -= uj.total - ui.total
                        sums[tj] -= ui.total - uj.total
