package forge;

/** The nations' player names, as the Revised map's games (and so every variant) spell them. */
final class ScenarioNations {
  private ScenarioNations() {}

  static final String RU = "Russians";
  static final String GE = "Germans";
  static final String IT = "Italians";
  static final String UK = "British";
  static final String JP = "Japanese";
  static final String US = "Americans";
}
