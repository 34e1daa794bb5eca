package forge;

/**
 * The scenarios the tool itself provides: they play any game, so no variant's folder holds them.
 * A variant's proofs.yaml names the games they are played on (its `plays`).
 */
final class AnyGameProofs implements Proof {
  @Override
  public Run scenario(final String name) {
    switch (name) {
      case "turn-steps":
        return ScenarioTurn::steps;
      case "convoy-zones":
        return ScenarioConvoyZones::zones;
      default:
        return null;
    }
  }
}
