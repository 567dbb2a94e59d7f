//! Preference profiles: for every player, a total order on the players saying whom that player
//! most wants to be the last mover (multiplayer paper, Def. 4.1).
//!
//! Players are numbered `0..m` in turn order: player 0 moves first, then 1, ..., then `m-1`,
//! then 0 again. A profile holds one order per player, **most wanted first**, naming players by
//! these absolute numbers. Profiles need not be symmetric: every player may rank the others in
//! its own way.
//!
//! The symmetric profiles of Def. 4.2 are written `GAMES(k1, ..., km)`: every player `A` wants
//! `N^{k1}(A)` most, then `N^{k2}(A)`, ..., where `N^k(A)` is the player `k` turns after `A`
//! (so `k1 = 0` means "myself"). [`Preferences::games`] builds them from the offsets.

use crate::Error;
use std::fmt;

/// The largest number of players a profile may have (the evaluator stores one byte per player
/// for every position).
pub const MAX_PLAYERS: usize = 16;

/// A preference profile: one total order on the players per player (Def. 4.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preferences {
    /// `orders[x]`: the players from most to least wanted by player `x` as the last mover.
    orders: Vec<Vec<usize>>,
    /// `rank[x * m + y]`: where `y` stands in `x`'s order (0 = most wanted).
    rank: Vec<u8>,
}

fn check_players(m: usize) -> Result<(), Error> {
    if m < 2 {
        return Err(Error::Invalid(format!(
            "a multiplayer game needs at least 2 players (got {m})"
        )));
    }
    if m > MAX_PLAYERS {
        return Err(Error::Invalid(format!(
            "at most {MAX_PLAYERS} players are supported (got {m})"
        )));
    }
    Ok(())
}

fn check_offset(m: usize, i: usize) -> Result<(), Error> {
    check_players(m)?;
    if i >= m {
        return Err(Error::Invalid(format!(
            "offset {i} is out of range: with {m} players offsets are 0..{}",
            m - 1
        )));
    }
    Ok(())
}

/// Check that `list` is a permutation of `0..m`; `what` names the list in the message.
fn check_permutation(what: &str, list: &[usize], m: usize) -> Result<(), Error> {
    let shown = list
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(",");
    if list.len() != m {
        return Err(Error::Invalid(format!(
            "{what} '{shown}' has {} entries but there are {m} players: it must list each of 0..{} exactly once",
            list.len(),
            m - 1
        )));
    }
    let mut seen = vec![false; m];
    for &x in list {
        if x >= m {
            return Err(Error::Invalid(format!(
                "{what} '{shown}' names {x}, but with {m} players only 0..{} exist",
                m - 1
            )));
        }
        if seen[x] {
            return Err(Error::Invalid(format!(
                "{what} '{shown}' is not a permutation: {x} appears twice (each of 0..{} must appear exactly once)",
                m - 1
            )));
        }
        seen[x] = true;
    }
    Ok(())
}

/// Parse a comma-separated list of small non-negative numbers.
fn parse_list(what: &str, text: &str) -> Result<Vec<usize>, Error> {
    let words: Vec<&str> = text.split(',').map(str::trim).collect();
    if words.iter().all(|w| w.is_empty()) {
        return Err(Error::Invalid(format!("{what} is empty")));
    }
    words
        .iter()
        .map(|w| {
            w.parse::<usize>().map_err(|_| {
                Error::Invalid(format!(
                    "{what} '{text}': '{w}' is not a player number (a non-negative whole number)"
                ))
            })
        })
        .collect()
}

impl Preferences {
    /// A profile from one order per player (`orders[x]` is player `x`'s order, most wanted
    /// first). Every order must be a permutation of `0..m`, `m = orders.len()`.
    pub fn new(orders: Vec<Vec<usize>>) -> Result<Self, Error> {
        let m = orders.len();
        check_players(m)?;
        for (x, order) in orders.iter().enumerate() {
            check_permutation(&format!("the order of player {x}"), order, m).map_err(|e| {
                Error::Invalid(format!("{e} ({m} orders were given, one per player)"))
            })?;
        }
        let mut rank = vec![0u8; m * m];
        for (x, order) in orders.iter().enumerate() {
            for (r, &y) in order.iter().enumerate() {
                rank[x * m + y] = r as u8;
            }
        }
        Ok(Preferences { orders, rank })
    }

    /// The symmetric profile `GAMES(k1, ..., km)` (Def. 4.2): player `A` wants `N^{k1}(A)`
    /// most, then `N^{k2}(A)`, and so on. The offsets must be a permutation of `0..m`.
    pub fn games(offsets: &[usize]) -> Result<Self, Error> {
        let m = offsets.len();
        check_players(m)?;
        check_permutation("the order GAMES(...)", offsets, m)?;
        let orders = (0..m)
            .map(|a| offsets.iter().map(|&k| (a + k) % m).collect())
            .collect();
        Preferences::new(orders)
    }

    /// Li's ranking `GAMES(0, 1, ..., m-1)`: first myself, then the player after me, ...
    /// (Thm 4.1: the winner is Li's first-ranked player).
    pub fn li(m: usize) -> Result<Self, Error> {
        Preferences::games(&(0..m).collect::<Vec<_>>())
    }

    /// Thm 4.2's profile `GAMES(i, i+1, ..., m-1, 0, 1, ..., i-1)`.
    pub fn rotation(m: usize, i: usize) -> Result<Self, Error> {
        check_offset(m, i)?;
        Preferences::games(&(0..m).map(|k| (i + k) % m).collect::<Vec<_>>())
    }

    /// Thm 4.3's profile `GAMES(i, i-1, ..., 0, m-1, m-2, ..., i+1)`.
    pub fn descending(m: usize, i: usize) -> Result<Self, Error> {
        check_offset(m, i)?;
        Preferences::games(&(0..m).map(|k| (i + m - k) % m).collect::<Vec<_>>())
    }

    /// Two-player misère play, `GAMES(1, 0)`: each player wants the OTHER to move last.
    pub fn misere() -> Self {
        Preferences::games(&[1, 0]).expect("GAMES(1,0) is a valid profile")
    }

    /// Parse the `GAMES(k1,...,km)` shorthand from its offsets, e.g. `"1,2,0"`.
    pub fn parse_games(text: &str) -> Result<Self, Error> {
        let offsets = parse_list("the order", text)?;
        Preferences::games(&offsets)
    }

    /// Parse per-player orders: one comma-separated list per player, player 0's first,
    /// separated by `/` (or `;`), each naming the players (0-based, player 0 moves first) from
    /// most to least wanted as the last mover. Example with 3 players: `"0,2,1/1,0,2/2,1,0"`
    /// (player 0 wants itself, then player 2, then player 1; ...).
    pub fn parse_orders(text: &str) -> Result<Self, Error> {
        let orders = text
            .split(['/', ';'])
            .enumerate()
            .map(|(x, part)| parse_list(&format!("the order of player {x}"), part))
            .collect::<Result<Vec<_>, _>>()?;
        Preferences::new(orders)
    }

    /// The profile a front end's choices describe — how `grundy play multiplayer`, `grundy
    /// multiplayer`, the web page and Python read them: `order` (the `GAMES(k1,...,km)`
    /// offsets, as [`Self::games`]) or `prefs` (one order per player, as [`Self::new`]; not
    /// both), else Li's order for `players` players (default 3). When `players` is given with
    /// an order it must agree with it. `names` are the choices as the front end calls them
    /// (`["--players", "--order", "--prefs"]` for the CLI, `["players", "order", "prefs"]` for
    /// Python), for the messages.
    pub fn choose(
        players: Option<u64>,
        order: Option<&[usize]>,
        prefs: Option<Vec<Vec<usize>>>,
        names: [&str; 3],
    ) -> Result<Self, Error> {
        let [players_name, order_name, prefs_name] = names;
        let given_order = order.is_some();
        let profile = match (order, prefs) {
            (Some(_), Some(_)) => {
                return Err(Error::Invalid(format!(
                    "give {order_name} or {prefs_name}, not both"
                )))
            }
            (Some(offsets), None) => Preferences::games(offsets)?,
            (None, Some(orders)) => Preferences::new(orders)?,
            (None, None) => {
                let m = players.unwrap_or(3);
                if !(2..=MAX_PLAYERS as u64).contains(&m) {
                    return Err(Error::Invalid(format!(
                        "{players_name} must be between 2 and {MAX_PLAYERS} (got {m})"
                    )));
                }
                Preferences::li(m as usize)?
            }
        };
        if let Some(m) = players {
            if m != profile.players() as u64 {
                let given = if given_order { order_name } else { prefs_name };
                return Err(Error::Invalid(format!(
                    "{given} describes {} players but {players_name} is {m}",
                    profile.players()
                )));
            }
        }
        Ok(profile)
    }

    /// [`Self::choose`] from text: `order` as [`Self::parse_games`] reads it (`"1,2,0"`),
    /// `prefs` as [`Self::parse_orders`] (`"0,1,2/2,1,0/1,0,2"`).
    pub fn from_choices(
        players: Option<u64>,
        order: Option<&str>,
        prefs: Option<&str>,
        names: [&str; 3],
    ) -> Result<Self, Error> {
        let offsets = order.map(|t| parse_list("the order", t)).transpose()?;
        let orders = prefs
            .map(|text| {
                text.split(['/', ';'])
                    .enumerate()
                    .map(|(x, part)| parse_list(&format!("the order of player {x}"), part))
                    .collect::<Result<Vec<_>, _>>()
            })
            .transpose()?;
        Preferences::choose(players, offsets.as_deref(), orders, names)
    }

    /// The number of players `m`.
    pub fn players(&self) -> usize {
        self.orders.len()
    }

    /// Player `x`'s order, most wanted last mover first.
    pub fn order(&self, x: usize) -> &[usize] {
        &self.orders[x]
    }

    /// Every player's order.
    pub fn orders(&self) -> &[Vec<usize>] {
        &self.orders
    }

    /// Where player `y` stands in player `x`'s order (0 = most wanted).
    #[inline]
    pub fn rank(&self, x: usize, y: usize) -> usize {
        self.rank[x * self.orders.len() + y] as usize
    }

    /// Whether player `x` would rather have `a` than `b` as the last mover.
    pub fn prefers(&self, x: usize, a: usize, b: usize) -> bool {
        self.rank(x, a) < self.rank(x, b)
    }

    /// The offsets `(k1, ..., km)` when the profile is symmetric (Def. 4.2), i.e. equal to
    /// `GAMES(k1, ..., km)`; `None` otherwise.
    pub fn games_offsets(&self) -> Option<Vec<usize>> {
        let m = self.players();
        let offsets: Vec<usize> = self.orders[0].clone();
        let symmetric = (0..m).all(|a| {
            self.orders[a]
                .iter()
                .zip(&offsets)
                .all(|(&y, &k)| y == (a + k) % m)
        });
        symmetric.then_some(offsets)
    }
}

impl fmt::Display for Preferences {
    /// `GAMES(k1,...,km)` for a symmetric profile, otherwise `player 0: 0>2>1; player 1: ...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let join =
            |v: &[usize], sep: &str| v.iter().map(usize::to_string).collect::<Vec<_>>().join(sep);
        if let Some(k) = self.games_offsets() {
            return write!(f, "GAMES({})", join(&k, ","));
        }
        let parts: Vec<String> = self
            .orders
            .iter()
            .enumerate()
            .map(|(x, o)| format!("player {x}: {}", join(o, ">")))
            .collect();
        f.write_str(&parts.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_shorthand_expands_to_absolute_orders() {
        let p = Preferences::games(&[1, 2, 0]).unwrap();
        assert_eq!(p.order(0), &[1, 2, 0]);
        assert_eq!(p.order(1), &[2, 0, 1]);
        assert_eq!(p.order(2), &[0, 1, 2]);
        assert!(p.prefers(2, 0, 2));
        assert_eq!(p.games_offsets(), Some(vec![1, 2, 0]));
        assert_eq!(p.to_string(), "GAMES(1,2,0)");
        assert_eq!(Preferences::li(4).unwrap().to_string(), "GAMES(0,1,2,3)");
        assert_eq!(Preferences::misere().to_string(), "GAMES(1,0)");
    }

    #[test]
    fn rotations_and_descending_orders_of_thm_4_2_and_4_3() {
        assert_eq!(
            Preferences::rotation(4, 2).unwrap().games_offsets(),
            Some(vec![2, 3, 0, 1])
        );
        assert_eq!(
            Preferences::rotation(3, 0).unwrap().games_offsets(),
            Some(vec![0, 1, 2])
        );
        assert_eq!(
            Preferences::descending(4, 1).unwrap().games_offsets(),
            Some(vec![1, 0, 3, 2])
        );
        assert_eq!(
            Preferences::descending(3, 0).unwrap().games_offsets(),
            Some(vec![0, 2, 1])
        );
        assert_eq!(
            Preferences::descending(3, 2).unwrap().games_offsets(),
            Some(vec![2, 1, 0])
        );
    }

    #[test]
    fn asymmetric_profiles_parse_and_print() {
        let p = Preferences::parse_orders("0,2,1/1,0,2/2,0,1").unwrap();
        assert_eq!(p.players(), 3);
        assert_eq!(p.games_offsets(), None);
        assert_eq!(
            p.to_string(),
            "player 0: 0>2>1; player 1: 1>0>2; player 2: 2>0>1"
        );
        assert_eq!(p.rank(0, 1), 2);
        // ';' works as the separator too, and a symmetric profile is recognised.
        let q = Preferences::parse_orders("1,2,0;2,0,1;0,1,2").unwrap();
        assert_eq!(q.to_string(), "GAMES(1,2,0)");
    }

    #[test]
    fn bad_orders_are_rejected_clearly() {
        let e = Preferences::parse_games("1,1,0").unwrap_err().to_string();
        assert!(
            e.contains("not a permutation") && e.contains("1 appears twice"),
            "{e}"
        );
        let e = Preferences::parse_games("0,1,3").unwrap_err().to_string();
        assert!(e.contains("names 3") && e.contains("0..2"), "{e}");
        let e = Preferences::parse_games("0").unwrap_err().to_string();
        assert!(e.contains("at least 2 players"), "{e}");
        let e = Preferences::parse_games("0,x").unwrap_err().to_string();
        assert!(e.contains("'x' is not a player number"), "{e}");
        let e = Preferences::parse_games("").unwrap_err().to_string();
        assert!(e.contains("empty"), "{e}");
        let e = Preferences::parse_orders("0,1,2/1,2,0")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("player 0") && e.contains("3 entries but there are 2"),
            "{e}"
        );
        let e = Preferences::parse_orders("0,1/1,0/0,1")
            .unwrap_err()
            .to_string();
        assert!(e.contains("2 entries but there are 3 players"), "{e}");
        let e = Preferences::parse_orders("0,1/1,-1")
            .unwrap_err()
            .to_string();
        assert!(e.contains("player 1") && e.contains("'-1'"), "{e}");
        let many: Vec<usize> = (0..17).collect();
        let e = Preferences::games(&many).unwrap_err().to_string();
        assert!(e.contains("at most 16 players"), "{e}");
    }
}
