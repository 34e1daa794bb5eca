"""What every lend-lease route must show in the engine (the `*-lend-lease` scenarios' facts)."""

from __future__ import annotations

from tests.proofs import Facts


def assert_lend_lease_paid_for_the_donor_alone(f: Facts, *, worth: int, donor: str = "Americans") -> None:
    """A turn's tokens in each zone pay the zone's Ally WORTH each, every round; a rival's token pays nothing."""
    tokens = f["tokensPerTurn"]
    recipients = f["recipientByZone"]
    # Tokens in one zone alone pay that zone's Ally, and nobody else.
    assert f["paidForOneZoneAlone"] == {zone: {player: tokens * worth} for zone, player in recipients.items()}
    # The donor's tokens leave the board as they are paid; the rival's token stays where it is.
    assert f["tokensLeftInThatZone"] == {zone: {"British": tokens} for zone in recipients}
    # Paid again in a later round, in both zones at once, while the donor's own land is lost; and
    # unloaded all the same.
    assert f["paidAgainWhileItsLandIsLost"] == {player: tokens * worth for player in recipients.values()}
    assert f["tokensLeftAfterPaidAgain"] == f["tokensLeftInThatZone"]
    # Only the rival's tokens at sea: they pay nobody; a single token in each zone is paid.
    assert f["paidForRivalTokensAlone"] == {}
    assert f["paidForOneTokenEach"] == {player: worth for player in recipients.values()}
    # A turn's tokens appear for the donor alone, every turn.
    assert f["granted"] == f["grantedAgain"] == {donor: tokens}
    # A token does not fight.
    assert f["tokenStrength"] == {"attack": 0, "defence": 0}
