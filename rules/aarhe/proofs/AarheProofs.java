package forge;

import java.util.LinkedHashMap;
import java.util.Map;

/** AARHE's engine scenarios by name; proofs.yaml says what each proves and on which games it is played. */
final class AarheProofs implements Proof {
  private static final Map<String, Run> RUNS = new LinkedHashMap<>();

  static {
    RUNS.put("aarhe-turn-order", ScenarioAarhe::turnOrder);
    RUNS.put("aarhe-aa-dice", ScenarioAarhe::aaDice);
    RUNS.put("aarhe-victory", ScenarioAarheVictory::victory);
    RUNS.put("aarhe-anti-air", ScenarioAarheAntiAir::antiAir);
    RUNS.put("aarhe-complex-places", ScenarioAarheComplexes::places);
    RUNS.put("aarhe-air-battle", ScenarioAarheAirBattle::airBattle);
    RUNS.put("aarhe-movement", ScenarioAarhe::movement);
    RUNS.put("aarhe-economy", ScenarioAarheEconomy::economy);
    RUNS.put("aarhe-builds", ScenarioAarheEconomy::builds);
    RUNS.put("aarhe-lend-lease", AarheProofs::lendLease);
    RUNS.put("aarhe-scorch", ScenarioAarheScorch::scorch);
    RUNS.put("aarhe-retreat", ScenarioAarheRetreat::retreat);
    RUNS.put("aarhe-axis-italy", ScenarioAarheAxis::italy);
  }

  @Override
  public Run scenario(final String name) {
    return RUNS.get(name);
  }

  /** Two "lendLeaseCargo" tokens a turn for the US, granted at its placement whatever it holds. */
  private static ScenarioJson.Obj lendLease(final String file) throws Exception {
    return ScenarioLendLease.play(file, new ScenarioLendLease.Route("lendLeaseCargo", 2, "americanTurnPlace", false,
        "americanTurnNonCombatMove"));
  }
}
