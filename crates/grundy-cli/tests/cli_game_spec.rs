//! `--game` registry: every family played by two players under GAMES(0,1) (normal play) must
//! agree with that family's own command on who wins.

mod common;
use common::{bad_input, json};

fn two_player_last_mover(game: &str, heaps: &[&str]) -> u64 {
    let mut args = vec![
        "multiplayer",
        "--players",
        "2",
        "--order",
        "0,1",
        "--game",
        game,
    ];
    args.extend_from_slice(heaps);
    json(&args)["last_mover"].as_u64().unwrap()
}

#[test]
fn takebreak_and_cdnim_through_the_registry_agree_with_their_commands() {
    for heaps in [["5", "2"], ["3", "3"], ["4", "1"], ["6", "5"]] {
        let tb = json(&["takebreak", "0.77", "--heaps", &heaps.join(",")]);
        let mover_wins = tb["outcome"] == "N";
        assert_eq!(
            two_player_last_mover("takebreak:kayles", &heaps) == 0,
            mover_wins,
            "{heaps:?}"
        );
        let cd = json(&["cdnim", heaps[0], heaps[1]]);
        let mover_wins = cd["outcome"] == "N";
        assert_eq!(
            two_player_last_mover("cdnim", &heaps) == 0,
            mover_wins,
            "{heaps:?}"
        );
    }
    let gg = json(&["takebreak", "grundys-game", "--heaps", "7"]);
    assert_eq!(
        two_player_last_mover("takebreak:grundys-game", &["7"]) == 0,
        gg["outcome"] == "N"
    );
}

#[test]
fn registry_errors() {
    bad_input(
        &["multiplayer", "--game", "takebreak", "3"],
        "needs its code",
    );
    bad_input(&["multiplayer", "--game", "takebreak:0.7#", "3"], "'#'");
    bad_input(&["multiplayer", "--game", "cdnim:3", "3"], "no parameters");
    bad_input(&["multiplayer", "--game", "chess", "3"], "unknown game");
}
