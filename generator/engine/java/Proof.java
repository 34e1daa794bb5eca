package forge;

/**
 * Engine scenarios a rules folder provides: the proof API's entry point.
 *
 * <p>A variant's proofs live beside its YAML, in rules/VARIANT/proofs/: Java classes in package
 * forge (the proof API, ScenarioGame, ScenarioPlay, ScenarioJson..., is package-private) and
 * proofs.yaml, which names the scenarios, says what each proves and on which variants' built
 * games the tests play it. The harness compiles those classes with its own (generator/engine/java)
 * and lists them for the driver (forge.Scenario), which asks each class that implements Proof,
 * in name order, for the scenario it is told to play. A class of its own gives a folder's
 * scenarios their names; the scenarios themselves may live in any class of the folder.
 */
public interface Proof {
  /** One scenario: the facts it reports for a built game (the file of its XML). */
  @FunctionalInterface
  interface Run {
    ScenarioJson.Obj facts(String file) throws Exception;
  }

  /** The scenario NAME, or null when this class plays no scenario of that name. */
  Run scenario(String name);
}
