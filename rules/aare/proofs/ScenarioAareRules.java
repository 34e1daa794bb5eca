package forge;

import static forge.ScenarioNations.*;
import static forge.ScenarioPlay.attackBuryatia;
import static forge.ScenarioPlay.cloneable;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;

import games.strategy.engine.data.GameData;
import games.strategy.engine.data.Route;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.TerritoryEffect;
import games.strategy.engine.data.Unit;
import games.strategy.engine.framework.GameDataUtils;
import games.strategy.triplea.TripleAUnit;
import games.strategy.triplea.attachments.TerritoryAttachment;
import games.strategy.triplea.attachments.UnitAttachment;
import games.strategy.triplea.delegate.DiceRoll;
import games.strategy.triplea.delegate.EndRoundDelegate;
import games.strategy.triplea.delegate.Matches;
import games.strategy.triplea.delegate.MoveDelegate;
import games.strategy.triplea.delegate.TechTracker;
import games.strategy.util.Tuple;

/**
 * AARe's rules played in the engine: its national advantages (declared, scheduled, priced, placed),
 * the Russia-Japan treaty, convoy raids and the 15 victory cities. AareProofs names them.
 */
final class ScenarioAareRules {
  private ScenarioAareRules() {}

  /** Siberian Conscripts: declared at the start of the turn, a free infantry every Mobilize. */
  static ScenarioJson.Obj advantagePlacement(final String file) throws Exception {
    final ScenarioGame g = new ScenarioGame(file);
    final ScenarioJson.Obj out = ScenarioJson.obj();
    g.enter("russianUserActions", 1);
    out.put("offeredAtStart", g.validActions());
    g.act("userActionAttachmentRuSiberian");
    out.put("declared", g.isSwitchOn(RU, "conditionAttachmentRuSiberianActive"));
    out.put("offeredAfterDeclaring", g.validActions());
    g.enter("russianMobilizeUserActions", 1);
    out.put("offeredAtMobilize", g.validActions());
    out.put("atMobilizeSwitch", g.isSwitchOn(RU, "conditionAttachmentRuAtMobilize"));
    out.put("pendingSwitch", g.isSwitchOn(RU, "conditionAttachmentRuSiberianPending"));
    out.put("yakutBefore", g.count("Yakut S.S.R.", "infantry", RU));
    g.act("userActionAttachmentRuSiberianInYakut");
    out.put("yakutAfter", g.count("Yakut S.S.R.", "infantry", RU));
    out.put("offeredAfterPlacing", g.validActions());
    g.enter("russianMobilizeUserActions", 2);
    out.put("offeredAtMobilizeRound2", g.validActions());
    out.put("buryatiaBefore", g.count("Buryatia S.S.R.", "infantry", RU));
    g.act("userActionAttachmentRuSiberianInBuryatia");
    out.put("buryatiaAfter", g.count("Buryatia S.S.R.", "infantry", RU));
    out.put("cloneable", cloneable(g.data));
    g.stop();
    return out;
  }

  /** The declaration schedule: one per nation in round 1, Germany, Japan and one Ally in round 2. */
  static ScenarioJson.Obj schedule(final String file) throws Exception {
    final ScenarioGame g = new ScenarioGame(file);
    final ScenarioJson.Obj out = ScenarioJson.obj();
    g.enter("russianUserActions", 1);
    g.act("userActionAttachmentRuLendLease");
    g.enter("germanUserActions", 1);
    out.put("germanRound1Start", g.validActions());
    g.act("userActionAttachmentGeLuftwaffe");
    out.put("germanRound1AfterDeclaring", g.validActions());
    g.enter("germanMobilizeUserActions", 1);
    out.put("germanRound1Mobilize", g.validActions());
    g.enter("britishUserActions", 1);
    g.act("userActionAttachmentUkRoyalNavy");
    g.enter("japaneseUserActions", 1);
    g.act("userActionAttachmentJpKamikaze");
    g.enter("americanUserActions", 1);
    g.act("userActionAttachmentUsNavalIndustry");
    g.enter("russianUserActions", 2);
    out.put("russianRound2Start", g.validActions());
    g.enter("germanUserActions", 2);
    out.put("germanRound2Start", g.validActions());
    g.enter("germanMobilizeUserActions", 2);
    out.put("germanRound2Mobilize", g.validActions());
    g.act("userActionAttachmentGeWolfPacks");
    out.put("germanRound2AfterDelayed", g.validActions());
    g.enter("britishUserActions", 2);
    out.put("britishRound2Start", g.validActions());
    g.act("userActionAttachmentUkCommonwealth");
    g.enter("americanUserActions", 2);
    out.put("americanRound2Start", g.validActions());
    g.enter("americanMobilizeUserActions", 2);
    out.put("americanRound2Mobilize", g.validActions());
    g.enter("germanMobilizeUserActions", 3);
    out.put("germanRound3Mobilize", g.validActions());
    out.put("cloneable", cloneable(g.data));
    g.stop();
    return out;
  }

  /** Royal Navy and Luftwaffe: the declaration swaps production rules in the nation's frontier. */
  static ScenarioJson.Obj prices(final String file) throws Exception {
    final ScenarioGame g = new ScenarioGame(file);
    final ScenarioJson.Obj out = ScenarioJson.obj();
    g.enter("germanUserActions", 1);
    out.put("germanBefore", g.frontier(GE));
    g.act("userActionAttachmentGeLuftwaffe");
    out.put("germanAfter", g.frontier(GE));
    g.enter("germanCombatMove", 1);
    out.put("germanAfterPurchase", g.frontier(GE));
    out.put("britishFrontierUntouched", g.frontier(UK));
    g.enter("britishUserActions", 1);
    out.put("britishBefore", g.frontier(UK));
    g.act("userActionAttachmentUkRoyalNavy");
    out.put("britishAfter", g.frontier(UK));
    g.enter("britishMobilizeUserActions", 1);
    out.put("destroyersOffUkBefore", g.count("7 Sea Zone", "destroyer", UK));
    g.act("userActionAttachmentUkRoyalNavyInSZ7");
    out.put("destroyersOffUkAfter", g.count("7 Sea Zone", "destroyer", UK));
    out.put("cloneable", cloneable(g.data));
    g.stop();
    return out;
  }

  /** Yamato, Banzai and Severe Winter: combat strengths the engine computes for battles. */
  static ScenarioJson.Obj combatBonus(final String file) throws Exception {
    final ScenarioGame g = new ScenarioGame(file);
    final ScenarioJson.Obj out = ScenarioJson.obj();
    final Territory sea = g.territory("61 Sea Zone");
    final Territory russia = g.territory("Russia");
    g.enter("russianUserActions", 1);
    out.put("russianInfantryBefore", strengths(g, RU, "infantry", russia));
    g.act("userActionAttachmentRuWinter");
    out.put("russianInfantryAfterDeclaring", strengths(g, RU, "infantry", russia));
    g.enter("russianMobilizeUserActions", 1);
    out.put("severeWinterOffered", g.validActions().contains("userActionAttachmentRuSevereWinter"));
    g.act("userActionAttachmentRuSevereWinter");
    out.put("russianInfantryWinter", strengths(g, RU, "infantry", russia));
    out.put("americanInfantryWinter", strengths(g, US, "infantry", russia));
    out.put("russianInfantryWithArtilleryWinter", attackWithArtillery(g, RU, russia));
    out.put("severeWinterOfferedAgain", g.validActions().contains("userActionAttachmentRuSevereWinter"));
    g.enter("russianMobilizeUserActions", 2);
    out.put("severeWinterOfferedNextRound", g.validActions().contains("userActionAttachmentRuSevereWinter"));
    out.put("russianInfantryNextTurn", strengths(g, RU, "infantry", russia));
    g.enter("germanUserActions", 2);
    out.put("russianInfantryAfterNextTurn", strengths(g, RU, "infantry", russia));
    g.enter("japaneseUserActions", 2);
    out.put("japaneseBattleshipBefore", strengths(g, JP, "battleship", sea));
    out.put("japaneseInfantryBefore", strengths(g, JP, "infantry", russia));
    g.act("userActionAttachmentJpYamato");
    out.put("japaneseBattleshipAfter", strengths(g, JP, "battleship", sea));
    out.put("britishBattleship", strengths(g, UK, "battleship", sea));
    out.put("cloneable", cloneable(g.data));
    g.stop();
    final ScenarioGame b = new ScenarioGame(file);
    b.enter("japaneseUserActions", 1);
    b.act("userActionAttachmentJpBanzai");
    out.put("japaneseInfantryBanzai", strengths(b, JP, "infantry", russia));
    out.put("japaneseInfantryWithArtilleryBanzai", attackWithArtillery(b, JP, russia));
    out.put("germanInfantry", strengths(b, GE, "infantry", russia));
    b.stop();
    return out;
  }

  /** US Mechanized Infantry: a hidden tech gives American infantry 2 moves and blitz. */
  static ScenarioJson.Obj techAbility(final String file) throws Exception {
    final ScenarioJson.Obj out = ScenarioJson.obj();
    for (final boolean declare : new boolean[] {false, true}) {
      final ScenarioGame g = new ScenarioGame(file);
      final ScenarioJson.Obj run = ScenarioJson.obj();
      g.enter("americanUserActions", 1);
      if (declare) {
        g.act("userActionAttachmentUsMechanizedInfantry");
      }
      final UnitAttachment infantry = UnitAttachment.get(g.unitType("infantry"));
      run.put("americanMovement", infantry.getMovement(g.player(US)));
      run.put("americanBlitz", infantry.getCanBlitz(g.player(US)));
      run.put("britishMovement", infantry.getMovement(g.player(UK)));
      run.put("americanTechs", ScenarioGame.names(TechTracker.getCurrentTechAdvances(g.player(US), g.data)));
      g.enter("americanNonCombatMove", 1);
      final List<Unit> movers = g.territory("Eastern United States").getUnits().getMatches(
          games.strategy.util.Match.allOf(Matches.unitIsOfType(g.unitType("infantry")), Matches.unitIsOwnedBy(g.player(US))));
      final Route route = new Route(g.territory("Eastern United States"), g.territory("Central United States"),
          g.territory("Western United States"));
      final String error = ((MoveDelegate) g.delegate()).move(movers, route, Collections.emptyList(), new HashMap<>());
      run.put("twoTerritoryMoveError", error);
      run.put("infantryInWesternUs", g.count("Western United States", "infantry", US));
      g.enter("americanMobilizeUserActions", 1);
      run.put("offeredAtMobilize", g.validActions());
      if (declare) {
        run.put("easternUsBefore", g.count("Eastern United States", "infantry", US));
        g.act("userActionAttachmentUsMechanizedInfantryInEasternUS");
        run.put("easternUsAfter", g.count("Eastern United States", "infantry", US));
      }
      run.put("cloneable", cloneable(g.data));
      g.stop();
      out.put(declare ? "declared" : "notDeclared", run);
    }
    return out;
  }

  /** Afrika Korps and German 88's: units placed at once may move this turn; more at Mobilize. */
  static ScenarioJson.Obj immediateUnits(final String file) throws Exception {
    final ScenarioJson.Obj out = ScenarioJson.obj();
    final ScenarioGame g = new ScenarioGame(file);
    g.enter("germanUserActions", 1);
    out.put("libyaBefore", libya(g));
    g.act("userActionAttachmentGeAfrikaKorps");
    out.put("libyaAfterDeclaring", libya(g));
    g.enter("germanCombatMove", 1);
    int movable = 0;
    for (final Unit u : g.territory("Libya").getUnits().getMatches(Matches.unitIsOwnedBy(g.player(GE)))) {
      if (((TripleAUnit) u).getMovementLeft() > 0) {
        movable++;
      }
    }
    out.put("libyaUnitsThatCanMove", movable);
    g.enter("germanMobilizeUserActions", 1);
    out.put("libyaAtMobilize", libya(g));
    g.leave();
    out.put("libyaAfterMobilize", libya(g));
    g.enter("germanMobilizeUserActions", 2);
    out.put("libyaRound2", libya(g));
    out.put("cloneable", cloneable(g.data));
    g.stop();
    final ScenarioGame h = new ScenarioGame(file);
    h.enter("germanUserActions", 1);
    out.put("easternEuropeArtilleryBefore", h.count("Eastern Europe", "artillery", GE));
    h.act("userActionAttachmentGe88s");
    out.put("easternEuropeArtilleryAfter", h.count("Eastern Europe", "artillery", GE));
    h.enter("germanMobilizeUserActions", 1);
    out.put("offered88sAtMobilize", h.validActions());
    h.act("userActionAttachmentGe88sInGermany");
    out.put("germanyArtillery", h.count("Germany", "artillery", GE));
    out.put("cloneable88s", cloneable(h.data));
    h.stop();
    out.put("libyaPlacedAfterLosingIt", ScenarioAare.afrikaKorpsWithoutLibya(file));
    return out;
  }

  static Map<String, Integer> libya(final ScenarioGame g) {
    final Map<String, Integer> counts = new java.util.TreeMap<>();
    for (final String unit : new String[] {"infantry", "artillery", "armour"}) {
      counts.put(unit, g.count("Libya", unit, GE));
    }
    return counts;
  }

  /** The Russia-Japan treaty: no attack while it holds; ending it pays the other side infantry. */
  static ScenarioJson.Obj treaty(final String file) throws Exception {
    final ScenarioJson.Obj out = ScenarioJson.obj();
    final ScenarioGame a = new ScenarioGame(file);
    a.enter("japaneseCombatMove", 1);
    out.put("relationAtStart", a.data.getRelationshipTracker().getRelationshipType(a.player(RU), a.player(JP)).getName());
    out.put("atWarAtStart", a.data.getRelationshipTracker().isAtWar(a.player(RU), a.player(JP)));
    out.put("attackDuringTreaty", attackBuryatia(a));
    a.stop();
    final ScenarioGame b = new ScenarioGame(file);
    b.enter("japaneseUserActions", 1);
    out.put("offeredToJapan", b.validActions().contains("userActionAttachmentJpBreakTreaty"));
    out.put("russiaInfantryBefore", b.count("Russia", "infantry", RU));
    b.act("userActionAttachmentJpBreakTreaty");
    out.put("relationAfterJapanBreaks", b.data.getRelationshipTracker().getRelationshipType(b.player(RU), b.player(JP)).getName());
    out.put("atWarAfterJapanBreaks", b.data.getRelationshipTracker().isAtWar(b.player(RU), b.player(JP)));
    out.put("russiaInfantryAfter", b.count("Russia", "infantry", RU));
    out.put("offeredAfterBreaking", b.validActions().contains("userActionAttachmentJpBreakTreaty"));
    b.enter("japaneseCombatMove", 1);
    out.put("attackAfterBreaking", attackBuryatia(b));
    out.put("cloneable", cloneable(b.data));
    // A later turn: the treaty is over, so neither side may end it (and be paid) again. In the
    // step it was used the once-a-turn limit would hide that.
    b.enter("russianUserActions", 2);
    out.put("offeredToRussiaNextRound", b.validActions().contains("userActionAttachmentRuBreakTreaty"));
    b.enter("japaneseUserActions", 2);
    out.put("offeredToJapanNextRound", b.validActions().contains("userActionAttachmentJpBreakTreaty"));
    b.stop();
    final ScenarioGame c = new ScenarioGame(file);
    c.enter("russianUserActions", 1);
    c.act("userActionAttachmentRuSiberian");
    c.enter("japaneseUserActions", 1);
    final int before = c.count("Russia", "infantry", RU);
    c.act("userActionAttachmentJpBreakTreaty");
    out.put("russiaInfantryGainedWithConscripts", c.count("Russia", "infantry", RU) - before);
    c.stop();
    final ScenarioGame d = new ScenarioGame(file);
    d.enter("russianUserActions", 1);
    final int japanBefore = d.count("Japan", "infantry", JP);
    final int othersInJapan = d.territory("Japan").getUnits().getMatches(Matches.unitIsOwnedBy(d.player(JP)).invert()).size();
    d.act("userActionAttachmentRuBreakTreaty");
    out.put("japanInfantryGainedWhenRussiaBreaks", d.count("Japan", "infantry", JP) - japanBefore);
    out.put("othersGainedInJapanWhenRussiaBreaks",
        d.territory("Japan").getUnits().getMatches(Matches.unitIsOwnedBy(d.player(JP)).invert()).size() - othersInJapan);
    d.enter("japaneseUserActions", 1);
    out.put("offeredToJapanAfterRussiaBreaks", d.validActions().contains("userActionAttachmentJpBreakTreaty"));
    d.enter("russianUserActions", 2);
    out.put("offeredToRussiaAfterBreakingNextRound", d.validActions().contains("userActionAttachmentRuBreakTreaty"));
    d.stop();
    final ScenarioGame e = new ScenarioGame(file);
    e.enter("russianBattle", 1);
    final int russiaInfantry = e.count("Russia", "infantry", RU);
    e.setOwner("Japan", US);
    e.leave();
    out.put("relationAfterCapitalFalls", e.data.getRelationshipTracker().getRelationshipType(e.player(RU), e.player(JP)).getName());
    out.put("russiaInfantryGainedWhenCapitalFalls", e.count("Russia", "infantry", RU) - russiaInfantry);
    e.stop();
    // Moscow falls: the treaty is void too, and nobody is paid.
    final ScenarioGame h = new ScenarioGame(file);
    h.enter("russianBattle", 1);
    final int japanInfantry = h.count("Japan", "infantry", JP);
    h.setOwner("Russia", GE);
    h.leave();
    out.put("relationAfterMoscowFalls", h.data.getRelationshipTracker().getRelationshipType(h.player(RU), h.player(JP)).getName());
    out.put("japanInfantryGainedWhenMoscowFalls", h.count("Japan", "infantry", JP) - japanInfantry);
    h.stop();
    // Either side may end the treaty at the start of its turn only, not at its Mobilize; and in
    // every turn while nobody has (a limit of attempts that runs out after the first turn shows).
    final ScenarioGame m = new ScenarioGame(file);
    m.enter("russianMobilizeUserActions", 1);
    out.put("offeredToRussiaAtMobilize", m.validActions().contains("userActionAttachmentRuBreakTreaty"));
    m.enter("japaneseMobilizeUserActions", 1);
    out.put("offeredToJapanAtMobilize", m.validActions().contains("userActionAttachmentJpBreakTreaty"));
    m.enter("russianUserActions", 2);
    out.put("offeredToRussiaInRound2", m.validActions().contains("userActionAttachmentRuBreakTreaty"));
    m.enter("japaneseUserActions", 2);
    out.put("offeredToJapanInRound2", m.validActions().contains("userActionAttachmentJpBreakTreaty"));
    m.stop();
    return out;
  }

  /** Convoy raids: enemy subs next to UK, US and Japanese complexes cut income; Germany is immune. */
  static ScenarioJson.Obj convoy(final String file) throws Exception {
    final ScenarioJson.Obj out = ScenarioJson.obj();
    for (final int subs : new int[] {0, 1, 5}) {
      final ScenarioGame g = new ScenarioGame(file);
      final ScenarioJson.Obj run = ScenarioJson.obj();
      // Subs arrive just before each victim's income (after its battles): a British sub next to
      // German Western Europe, German subs next to the UK, an American sub next to Japan.
      run.put("germanIncome", income(g, "german", GE, () -> add(g, "7 Sea Zone", UK, subs > 0 ? 1 : 0)));
      run.put("britishIncome", income(g, "british", UK, () -> add(g, "7 Sea Zone", GE, subs)));
      run.put("japaneseIncome", income(g, "japanese", JP, () -> add(g, "61 Sea Zone", US, subs > 0 ? 1 : 0)));
      run.put("britishProduction", production(g, UK));
      run.put("germanProduction", production(g, GE));
      run.put("japaneseProduction", production(g, JP));
      run.put("enemySubsNextToUk", enemySubs(g, UK, "2 Sea Zone", "3 Sea Zone", "6 Sea Zone", "7 Sea Zone", "8 Sea Zone"));
      g.stop();
      out.put("subs" + subs, run);
    }
    return out;
  }

  static void add(final ScenarioGame g, final String zone, final String owner, final int subs) {
    if (subs > 0) {
      g.addUnits(zone, "submarine", owner, subs);
    }
  }

  static Map<String, Integer> enemySubs(final ScenarioGame g, final String victim, final String... zones) {
    final Map<String, Integer> found = new java.util.TreeMap<>();
    for (final String zone : zones) {
      final int n = g.territory(zone).getUnits().countMatches(games.strategy.util.Match.allOf(
          Matches.unitIsOfType(g.unitType("submarine")), Matches.enemyUnit(g.player(victim), g.data)));
      if (n > 0) {
        found.put(zone, n);
      }
    }
    return found;
  }

  /** PUs PLAYER collects at its end of turn in round 1, after SETUP ran at its tech activation. */
  static int income(final ScenarioGame g, final String prefix, final String player, final Runnable setup)
      throws Exception {
    g.enter(prefix + "TechActivation", 1);
    setup.run();
    final int before = g.pus(player);
    g.enter(prefix + "EndTurn", 1);
    return g.pus(player) - before;
  }

  static int production(final ScenarioGame g, final String player) {
    int total = 0;
    for (final Territory t : g.data.getMap().getTerritories()) {
      if (t.getOwner().equals(g.player(player)) && TerritoryAttachment.get(t) != null) {
        total += TerritoryAttachment.get(t).getProduction();
      }
    }
    return total;
  }

  /** 15 victory cities: Allies win with 11, Axis with 10, checked at the end of the round. */
  static ScenarioJson.Obj victory(final String file) throws Exception {
    final ScenarioJson.Obj out = ScenarioJson.obj();
    final String[][] cases = {
        {"start"},
        {"allies11", "Western Europe", UK, "Southern Europe", UK},
        {"allies10", "Western Europe", UK},
        {"axis10", "India", JP, "Australia", JP, "Hawaiian Islands", JP, "Caucasus", GE},
        {"axis9", "India", JP, "Australia", JP, "Hawaiian Islands", JP},
    };
    for (final String[] c : cases) {
      final ScenarioGame g = new ScenarioGame(file);
      // Captures happen in the American turn, after the last battles, so nobody retakes them.
      g.enter("americanEndTurn", 1);
      for (int i = 1; i + 1 < c.length; i += 2) {
        g.setOwner(c[i], c[i + 1]);
      }
      final ScenarioJson.Obj run = ScenarioJson.obj();
      run.put("victoryCities", victoryCities(g.data));
      g.leave();
      run.put("gameOverBeforeRoundEnd", g.gameOver());
      g.enter("endRoundStep", 1);
      final EndRoundDelegate endRound = g.delegate();
      run.put("gameOver", g.gameOver());
      run.put("winners", endRound.getWinners() == null ? null : new TreeSet<>(ScenarioGame.names(endRound.getWinners())));
      g.stop();
      out.put(c[0], run);
    }
    return out;
  }

  static Map<String, Integer> victoryCities(final GameData data) {
    final Map<String, Integer> byAlliance = new java.util.TreeMap<>();
    for (final Territory t : data.getMap().getTerritories()) {
      final TerritoryAttachment ta = TerritoryAttachment.get(t);
      if (ta == null || ta.getVictoryCity() == 0 || t.getOwner().isNull()) {
        continue;
      }
      for (final String alliance : data.getAllianceTracker().getAlliancesPlayerIsIn(t.getOwner())) {
        byAlliance.merge(alliance, ta.getVictoryCity(), Integer::sum);
      }
    }
    return byAlliance;
  }

  /** Attack and defence strength of one PLAYER unit of type UNIT fighting in WHERE. */
  static ScenarioJson.Obj strengths(final ScenarioGame g, final String player, final String unit,
      final Territory where) {
    final Unit u = g.unitType(unit).create(g.player(player));
    final List<Unit> units = new ArrayList<>(Collections.singletonList(u));
    // The territory's effects count, as in a battle there (a T-34 effect, terrain).
    final java.util.Collection<TerritoryEffect> effects = games.strategy.triplea.delegate.TerritoryEffectHelper.getEffects(where);
    final Map<Unit, Tuple<Integer, Integer>> attack =
        DiceRoll.getUnitPowerAndRollsForNormalBattles(units, new ArrayList<>(), false, false, g.data, where, effects,
            false, Collections.emptyList());
    final Map<Unit, Tuple<Integer, Integer>> defence =
        DiceRoll.getUnitPowerAndRollsForNormalBattles(units, new ArrayList<>(), true, false, g.data, where, effects,
            false, Collections.emptyList());
    return ScenarioJson.obj().put("attack", attack.get(u).getFirst()).put("defence", defence.get(u).getFirst());
  }

  /** Attack strength of an infantry that attacks together with one artillery. */
  static int attackWithArtillery(final ScenarioGame g, final String player, final Territory where) {
    final Unit infantry = g.unitType("infantry").create(g.player(player));
    final Unit artillery = g.unitType("artillery").create(g.player(player));
    final List<Unit> units = new ArrayList<>();
    units.add(infantry);
    units.add(artillery);
    final Map<Unit, Tuple<Integer, Integer>> attack =
        DiceRoll.getUnitPowerAndRollsForNormalBattles(units, new ArrayList<>(), false, false, g.data, where,
            Collections.emptyList(), false, Collections.emptyList());
    return attack.get(infantry).getFirst();
  }
}
