package forge;

import static forge.ScenarioNations.*;

import java.util.Collections;

import games.strategy.engine.data.Unit;
import games.strategy.triplea.attachments.TerritoryAttachment;
import games.strategy.triplea.attachments.UnitAttachment;
import games.strategy.triplea.delegate.DiceRoll;
import games.strategy.triplea.delegate.Matches;
import games.strategy.util.Tuple;

/** More AARe rules in the engine: advantages' combat strengths, AA, prices paid, convoy zones; techs. */
final class ScenarioAare {
  private ScenarioAare() {}

  /**
   * Afrika Korps declared, then Libya lost (to Britain) before the German Mobilize ends: how many
   * German units the step's end puts in Libya.
   */
  static int afrikaKorpsWithoutLibya(final String file) throws Exception {
    final ScenarioGame g = new ScenarioGame(file);
    g.enter("germanUserActions", 1);
    g.act("userActionAttachmentGeAfrikaKorps");
    g.enter("germanMobilizeUserActions", 1);
    g.setOwner("Libya", UK);
    final int before = g.territory("Libya").getUnits().getMatches(Matches.unitIsOwnedBy(g.player(GE))).size();
    g.leave();
    final int placed = g.territory("Libya").getUnits().getMatches(Matches.unitIsOwnedBy(g.player(GE))).size() - before;
    g.stop();
    return placed;
  }

  /** Russian T-34s and Wolf Packs in combat, Radar on the AA dice, a fighter bought at the Luftwaffe price. */
  static ScenarioJson.Obj advantageStrengths(final String file) throws Exception {
    final ScenarioJson.Obj out = ScenarioJson.obj();
    final ScenarioGame g = new ScenarioGame(file);
    g.enter("russianUserActions", 1);
    out.put("russianArmourInRussiaBefore", ScenarioPlay.strengths(g, RU, "armour", "Russia", false));
    g.act("userActionAttachmentRuT34");
    out.put("russianArmourInRussia", ScenarioPlay.strengths(g, RU, "armour", "Russia", false));
    out.put("britishArmourInRussia", ScenarioPlay.strengths(g, UK, "armour", "Russia", false));
    out.put("russianArmourInPersia", ScenarioPlay.strengths(g, RU, "armour", "Persia", false));
    g.enter("germanUserActions", 1);
    out.put("germanSubmarineBefore", ScenarioPlay.strengths(g, GE, "submarine", "5 Sea Zone", false));
    g.act("userActionAttachmentGeWolfPacks");
    out.put("germanSubmarine", ScenarioPlay.strengths(g, GE, "submarine", "5 Sea Zone", false));
    out.put("japaneseSubmarine", ScenarioPlay.strengths(g, JP, "submarine", "5 Sea Zone", false));
    g.enter("britishUserActions", 1);
    out.put("britishAaBefore", aa(g, UK));
    g.act("userActionAttachmentUkRadar");
    out.put("britishAa", aa(g, UK));
    out.put("germanAa", aa(g, GE));
    g.stop();
    // Luftwaffe: the declared price is what the purchase charges.
    final ScenarioGame h = new ScenarioGame(file);
    h.enter("germanUserActions", 1);
    h.act("userActionAttachmentGeLuftwaffe");
    ScenarioPlay.enter(h, GE, "Purchase", 1);
    final int pus = h.pus(GE);
    out.put("buyLuftwaffeFighter", String.valueOf(ScenarioPlay.buy(h, "buyFighterLuftwaffe", 2)));
    out.put("paidForTwoFighters", pus - h.pus(GE));
    out.put("fightersBought", h.player(GE).getUnits().countMatches(
        games.strategy.triplea.delegate.Matches.unitIsOfType(h.unitType("fighter"))));
    out.put("germanFrontier", h.frontier(GE));
    h.stop();
    return out;
  }

  /** The engine's AA strength and dice sides for one anti-aircraft gun of PLAYER, defending. */
  private static ScenarioJson.Obj aa(final ScenarioGame g, final String player) {
    final Unit gun = g.unitType("aaGun").create(g.player(player));
    final Tuple<Integer, Integer> aa = DiceRoll.getAAattackAndMaxDiceSides(Collections.singletonList(gun), g.data, true);
    return ScenarioJson.obj().put("hitsOn", aa.getFirst()).put("sides", aa.getSecond());
  }

  /** Colonial Garrison: a complex in India makes the sea zone next to it a convoy zone. */
  static ScenarioJson.Obj colonialConvoys(final String file) throws Exception {
    final ScenarioJson.Obj out = ScenarioJson.obj();
    for (final boolean garrison : new boolean[] {false, true}) {
      final ScenarioGame g = new ScenarioGame(file);
      final ScenarioJson.Obj run = ScenarioJson.obj();
      if (garrison) {
        g.enter("britishUserActions", 1);
        g.act("userActionAttachmentUkColonialGarrison");
      }
      g.enter("britishMobilizeUserActions", 1);
      if (garrison) {
        run.put("offered", g.validActions().contains("userActionAttachmentUkColonialGarrisonInIndia"));
        g.act("userActionAttachmentUkColonialGarrisonInIndia");
      }
      run.put("indiaFactories", g.count("India", "factory", UK));
      run.put("convoyZone35", TerritoryAttachment.get(g.territory("35 Sea Zone")).getBlockadeZone());
      g.addUnits("35 Sea Zone", "submarine", JP, 1);
      final int before = g.pus(UK);
      g.enter("britishEndTurn", 1);
      run.put("britishIncome", g.pus(UK) - before);
      g.stop();
      out.put(garrison ? "garrison" : "noGarrison", run);
    }
    return out;
  }

  /**
   * Jet fighters, long range aircraft and combined arms as the engine reckons them: Germany's
   * fighters, bombers and destroyers before and after it gains the three techs (as a successful
   * research roll gives them), and Britain's, which did not gain them.
   */
  static ScenarioJson.Obj techStrengths(final String file) throws Exception {
    final ScenarioJson.Obj out = ScenarioJson.obj();
    final ScenarioGame g = new ScenarioGame(file);
    g.enter("germanTech", 1);
    out.put("germansBefore", airAndNavalStrengths(g, GE));
    for (final String tech : new String[] {"jetPower", "longRangeAir", "destroyerBombard"}) {
      ScenarioPlay.addTech(g, GE, tech);
    }
    out.put("germansWithTechs", airAndNavalStrengths(g, GE));
    out.put("britishMeanwhile", airAndNavalStrengths(g, UK));
    g.stop();
    return out;
  }

  private static ScenarioJson.Obj airAndNavalStrengths(final ScenarioGame g, final String player) {
    final UnitAttachment fighter = UnitAttachment.get(g.unitType("fighter"));
    final UnitAttachment bomber = UnitAttachment.get(g.unitType("bomber"));
    final UnitAttachment destroyer = UnitAttachment.get(g.unitType("destroyer"));
    return ScenarioJson.obj()
        .put("fighter", ScenarioPlay.strengths(g, player, "fighter", "Germany", false))
        .put("fighterMovement", fighter.getMovement(g.player(player)))
        .put("bomberMovement", bomber.getMovement(g.player(player)))
        .put("destroyerCanBombard", destroyer.getCanBombard(g.player(player)))
        .put("destroyerBombards", destroyer.getBombard());
  }
}
