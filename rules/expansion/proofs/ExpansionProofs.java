package forge;

import java.util.LinkedHashMap;
import java.util.Map;

/** The expansion's engine scenarios by name; proofs.yaml says what each proves and on which games it is played. */
final class ExpansionProofs implements Proof {
  private static final Map<String, Run> RUNS = new LinkedHashMap<>();

  static {
    RUNS.put("expansion-turn", ScenarioExpansion::turn);
    RUNS.put("expansion-lend-lease", ExpansionProofs::lendLease);
    RUNS.put("expansion-treaty", ScenarioExpansion::treaty);
    RUNS.put("expansion-free-units", ScenarioExpansion::freeUnits);
    RUNS.put("expansion-units", ScenarioExpansion::units);
  }

  @Override
  public Run scenario(final String name) {
    return RUNS.get(name);
  }

  /** One "lendLease" token a turn, granted at the American placement while the US holds its land. */
  private static ScenarioJson.Obj lendLease(final String file) throws Exception {
    return ScenarioLendLease.play(file, new ScenarioLendLease.Route("lendLease", 1, "americanPlace", true,
        "americanNonCombatMove"));
  }
}
