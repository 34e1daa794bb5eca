"""What every lend-lease route must show in the engine (the `*-lend-lease` scenarios' facts)."""

from __future__ import annotations

from tests.proofs import Facts


def assert_lend_lease_paid_for_the_donor_alone(f: Facts, *, worth: int, donor: str = "Americans") -> None:
    """A turn's tokens in each zone pay the zone's Ally WORTH each; a rival's token pays nothing."""
    tokens = f["tokensPerTurn"]
    recipients = f["recipientByZone"]
    # Each zone's Ally is paid for the donor's tokens there, and nobody else is paid.
    assert f["paid"] == {player: tokens * worth for player in recipients.values()}
    # The donor's tokens leave the board as they are paid; the rival's token stays where it is.
    assert f["tokensLeft"] == {zone: {"British": tokens} for zone in recipients}
    # Only the rival's tokens at sea: they pay nobody.
    assert f["paidForRivalTokensAlone"] == {}
    # A turn's tokens appear for the donor alone.
    assert f["granted"] == {donor: tokens}
    # A token does not fight.
    assert f["tokenStrength"] == {"attack": 0, "defence": 0}
