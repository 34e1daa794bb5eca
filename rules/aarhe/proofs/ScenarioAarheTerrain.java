package forge;

import static forge.ScenarioNations.*;

import java.util.ArrayList;
import java.util.List;

import games.strategy.engine.data.Unit;
import games.strategy.engine.data.UnitType;
import games.strategy.engine.data.changefactory.ChangeFactory;
import games.strategy.triplea.attachments.UnitAttachment;
import games.strategy.triplea.delegate.Matches;

/** AARHE special terrain and Jet Plane, for every unit type of the game the rule covers. */
final class ScenarioAarheTerrain {
  private ScenarioAarheTerrain() {}

  /**
   * Every land unit type's strengths on plain land, in snow and in mountains; every unit type that
   * may blitz trying to blitz through snow, and armour through plain land; fighters and
   * bombers before and after Jet Plane. Played in ROUND's Japanese combat move.
   */
  static ScenarioJson.Obj terrain(final ScenarioGame g, final int round) throws Exception {
    final ScenarioJson.Obj out = ScenarioJson.obj();
    final ScenarioJson.Obj strengths = ScenarioJson.obj();
    for (final UnitType type : g.data.getUnitTypeList()) {
      if (!Matches.unitTypeIsLand().match(type) || Matches.unitTypeIsInfrastructure().match(type)) {
        continue;
      }
      strengths.put(type.getName(), ScenarioJson.obj()
          .put("plain", ScenarioPlay.strengths(g, UK, type.getName(), "Western Europe", false))
          .put("snow", ScenarioPlay.strengths(g, UK, type.getName(), "Alaska", false))
          .put("mountain", ScenarioPlay.strengths(g, UK, type.getName(), "Persia", false)));
    }
    out.put("landStrengths", strengths);
    // Blitz: the deserts are impassable on this board, so the snow of the Soviet Far East shows
    // the rule. Buryatia (Japanese), the Soviet Far East (snow), Yakut and Evenki (plain) emptied:
    // each type that may blitz tries Buryatia - Soviet Far East - Yakut, armour then Buryatia -
    // Yakut - Evenki.
    ScenarioPlay.enter(g, JP, "CombatMove", round);
    for (final String t : new String[] {"Buryatia S.S.R.", "Soviet Far East", "Yakut S.S.R.", "Evenki National Okrug"}) {
      final List<Unit> there = new ArrayList<>(g.territory(t).getUnits().getUnits());
      if (!there.isEmpty()) {
        g.change(ChangeFactory.removeUnits(g.territory(t), there));
      }
    }
    g.setOwner("Buryatia S.S.R.", JP);
    final ScenarioJson.Obj snow = ScenarioJson.obj();
    for (final UnitType type : g.data.getUnitTypeList()) {
      if (Matches.unitTypeIsLand().match(type) && UnitAttachment.get(type).getCanBlitz(g.player(JP))) {
        g.addUnits("Buryatia S.S.R.", type.getName(), JP, 1);
        snow.put(type.getName(), String.valueOf(ScenarioPlay.move(g, JP, type.getName(), 1, "Buryatia S.S.R.",
            "Soviet Far East", "Yakut S.S.R.")));
      }
    }
    out.put("blitzThroughSnow", snow);
    out.put("blitzThroughPlain", String.valueOf(ScenarioPlay.move(g, JP, "armour", 1, "Buryatia S.S.R.",
        "Yakut S.S.R.", "Evenki National Okrug")));
    // Jet Plane, given to the British.
    out.put("fighterBeforeJets", ScenarioPlay.strengths(g, UK, "fighter", "Western Europe", false));
    out.put("bomberBeforeJets", ScenarioPlay.strengths(g, UK, "bomber", "Western Europe", false));
    ScenarioPlay.addTech(g, UK, "jetPower");
    out.put("fighterWithJets", ScenarioPlay.strengths(g, UK, "fighter", "Western Europe", false));
    out.put("bomberWithJets", ScenarioPlay.strengths(g, UK, "bomber", "Western Europe", false));
    if (g.data.getUnitTypeList().getUnitType("navalFighter") != null) {
      out.put("navalFighterWithJets", ScenarioPlay.strengths(g, UK, "navalFighter", "Western Europe", false));
    }
    return out;
  }
}
