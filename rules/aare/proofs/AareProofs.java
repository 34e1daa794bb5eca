package forge;

import java.util.LinkedHashMap;
import java.util.Map;

/** AARe's engine scenarios by name; proofs.yaml says what each proves and on which games it is played. */
final class AareProofs implements Proof {
  private static final Map<String, Run> RUNS = new LinkedHashMap<>();
  /** declare-RuWinter plays the user action userActionAttachmentRuWinter (ScenarioAdvantages.declared). */
  private static final String ADVANTAGE = "declare-";

  static {
    RUNS.put("advantage-placement", ScenarioAareRules::advantagePlacement);
    RUNS.put("schedule", ScenarioAareRules::schedule);
    RUNS.put("prices", ScenarioAareRules::prices);
    RUNS.put("combat-bonus", ScenarioAareRules::combatBonus);
    RUNS.put("tech-ability", ScenarioAareRules::techAbility);
    RUNS.put("immediate-units", ScenarioAareRules::immediateUnits);
    RUNS.put("treaty", ScenarioAareRules::treaty);
    RUNS.put("convoy", ScenarioAareRules::convoy);
    RUNS.put("victory", ScenarioAareRules::victory);
    RUNS.put("advantage-strengths", ScenarioAare::advantageStrengths);
    RUNS.put("colonial-convoys", ScenarioAare::colonialConvoys);
    RUNS.put("tech-strengths", ScenarioAare::techStrengths);
    RUNS.put("advantages-undeclared", ScenarioAdvantages::undeclared);
    RUNS.put("advantages-second", ScenarioAdvantageSlots::second);
  }

  @Override
  public Run scenario(final String name) {
    if (name.startsWith(ADVANTAGE) && name.length() > ADVANTAGE.length()) {
      final String action = "userActionAttachment" + name.substring(ADVANTAGE.length());
      return file -> ScenarioAdvantages.declared(file, action);
    }
    return RUNS.get(name);
  }
}
