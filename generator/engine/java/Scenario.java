package forge;

import static forge.ScenarioNations.*;

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
 * Scenarios that prove rules in the real TripleA 1.9 engine: AARe's here, AARHE's in ScenarioAarhe*.
 *
 * <pre>
 * java -cp CACHE:triplea.jar forge.Scenario SCENARIO FILE [MAP_PROPERTIES_FOLDER]
 * </pre>
 *
 * Each scenario loads FILE (the built game) into fresh headless games, sets the state up through
 * the engine's change objects, runs the steps and delegates the rule lives in, and prints one JSON
 * object of facts on stdout (everything the engine prints goes to stderr). Exit status 2 for an
 * unknown scenario, 1 when the scenario itself failed (the JSON then has "error").
 */
public final class Scenario {
  private Scenario() {}

  public static void main(final String[] args) throws Exception {
    ParentWatch.start();
    final PrintStream json = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
    System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8));
    System.setProperty("java.awt.headless", "true");
    System.setProperty("triplea.headless", "true");
    if (args.length != 2 && args.length != 3) {
      System.err.println("usage: forge.Scenario SCENARIO FILE [MAP_PROPERTIES_FOLDER] | --batch LIST");
      System.exit(2);
    }
    if (args.length == 2 && args[0].equals("--batch")) {
      batch(args[1], json);
      System.exit(0);
      return;
    }
    final String name = args[0];
    final String file = args[1];
    ScenarioGame.resources = args.length == 3 ? args[2] : null;
    if (!known(name)) {
      System.err.println("unknown scenario: " + name);
      System.exit(2);
      return;
    }
    final ScenarioJson.Obj facts = runCatching(name, file);
    json.println(ScenarioJson.obj().put("scenario", name).put("facts", facts));
    json.flush();
    System.exit(facts.get("error") != null ? 1 : 0);
  }

  /**
   * Many scenario runs in one JVM: LIST has one "SCENARIO TAB FILE [TAB MAP_PROPERTIES_FOLDER]" a
   * line; each prints one JSON line {"index", "scenario", "facts", "ms"} as soon as it ends (ms: how
   * long the run took, which the mutation sweep plays cheap scenarios first by). Each run loads
   * its game afresh, so a run never sees another's state; a JVM started once saves its start and
   * the engine's class loading for every run after the first (the mutation sweep plays hundreds).
   */
  private static void batch(final String list, final PrintStream json) throws Exception {
    final List<String> lines = Files.readAllLines(Paths.get(list), StandardCharsets.UTF_8);
    for (int index = 0; index < lines.size(); index++) {
      final String[] parts = lines.get(index).split("\t");
      ScenarioGame.resources = parts.length > 2 ? parts[2] : null;
      final long started = System.nanoTime();
      final ScenarioJson.Obj facts = known(parts[0])
          ? runCatching(parts[0], parts[1])
          : ScenarioJson.obj().put("error", "unknown scenario: " + parts[0]);
      final long ms = (System.nanoTime() - started) / 1_000_000;
      json.println(ScenarioJson.obj().put("index", index).put("scenario", parts[0]).put("facts", facts).put("ms", ms));
      json.flush();
    }
  }

  private static ScenarioJson.Obj runCatching(final String name, final String file) {
    try {
      return run(name, file);
    } catch (final Throwable t) {
      t.printStackTrace();
      return ScenarioJson.obj().put("error", ForgeHarness.describe(t));
    }
  }

  /** One scenario: the facts it reports for a game file. */
  private interface Run {
    ScenarioJson.Obj facts(String file) throws Exception;
  }

  private static final Map<String, Run> RUNS = new LinkedHashMap<>();
  private static final String ADVANTAGE = "declare-";

  static {
    RUNS.put("advantage-placement", Scenario::advantagePlacement);
    RUNS.put("schedule", Scenario::schedule);
    RUNS.put("prices", Scenario::prices);
    RUNS.put("combat-bonus", Scenario::combatBonus);
    RUNS.put("tech-ability", Scenario::techAbility);
    RUNS.put("immediate-units", Scenario::immediateUnits);
    RUNS.put("treaty", Scenario::treaty);
    RUNS.put("convoy", Scenario::convoy);
    RUNS.put("victory", Scenario::victory);
    RUNS.put("advantage-strengths", ScenarioAare::advantageStrengths);
    RUNS.put("colonial-convoys", ScenarioAare::colonialConvoys);
    RUNS.put("tech-strengths", ScenarioAare::techStrengths);
    RUNS.put("expansion-turn", ScenarioExpansion::turn);
    RUNS.put("expansion-lend-lease", ScenarioLendLease::expansion);
    RUNS.put("expansion-treaty", ScenarioExpansion::treaty);
    RUNS.put("expansion-free-units", ScenarioExpansion::freeUnits);
    RUNS.put("expansion-units", ScenarioExpansion::units);
    RUNS.put("aarhe-turn-order", ScenarioAarhe::turnOrder);
    RUNS.put("aarhe-aa-dice", ScenarioAarhe::aaDice);
    RUNS.put("aarhe-victory", ScenarioAarheVictory::victory);
    RUNS.put("aarhe-anti-air", ScenarioAarheAntiAir::antiAir);
    RUNS.put("aarhe-complex-places", ScenarioAarheComplexes::places);
    RUNS.put("aarhe-air-battle", ScenarioAarheAirBattle::airBattle);
    RUNS.put("aarhe-movement", ScenarioAarhe::movement);
    RUNS.put("aarhe-economy", ScenarioAarheEconomy::economy);
    RUNS.put("aarhe-builds", ScenarioAarheEconomy::builds);
    RUNS.put("aarhe-lend-lease", ScenarioLendLease::aarhe);
    RUNS.put("aarhe-scorch", ScenarioAarheScorch::scorch);
    RUNS.put("advantages-undeclared", ScenarioAdvantages::undeclared);
    RUNS.put("advantages-second", ScenarioAdvantageSlots::second);
    RUNS.put("aarhe-retreat", ScenarioAarheRetreat::retreat);
    RUNS.put("aarhe-axis-italy", ScenarioAarheAxis::italy);
    RUNS.put("turn-steps", ScenarioTurn::steps);
    RUNS.put("convoy-zones", ScenarioConvoyZones::zones);
  }

  private static boolean known(final String name) {
    return RUNS.containsKey(name) || name.startsWith(ADVANTAGE);
  }

  private static ScenarioJson.Obj run(final String name, final String file) throws Exception {
    if (name.startsWith(ADVANTAGE)) { // declare-RuWinter: the user action userActionAttachmentRuWinter
      return ScenarioAdvantages.declared(file, "userActionAttachment" + name.substring(ADVANTAGE.length()));
    }
    final Run scenario = RUNS.get(name);
    if (scenario == null) {
      throw new IllegalArgumentException("unknown scenario: " + name);
    }
    return scenario.facts(file);
  }

  /** Siberian Conscripts: declared at the start of the turn, a free infantry every Mobilize. */
  private static ScenarioJson.Obj advantagePlacement(final String file) throws Exception {
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
  private static ScenarioJson.Obj schedule(final String file) throws Exception {
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
  private static ScenarioJson.Obj prices(final String file) throws Exception {
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
  private static ScenarioJson.Obj combatBonus(final String file) throws Exception {
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
  private static ScenarioJson.Obj techAbility(final String file) throws Exception {
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
  private static ScenarioJson.Obj immediateUnits(final String file) throws Exception {
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

  private static Map<String, Integer> libya(final ScenarioGame g) {
    final Map<String, Integer> counts = new java.util.TreeMap<>();
    for (final String unit : new String[] {"infantry", "artillery", "armour"}) {
      counts.put(unit, g.count("Libya", unit, GE));
    }
    return counts;
  }

  /** The Russia-Japan treaty: no attack while it holds; ending it pays the other side infantry. */
  private static ScenarioJson.Obj treaty(final String file) throws Exception {
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

  /** Japanese infantry from Manchuria try to attack Buryatia in combat move; null when allowed. */
  static String attackBuryatia(final ScenarioGame g) {
    final List<Unit> units = g.territory("Manchuria").getUnits().getMatches(
        games.strategy.util.Match.allOf(Matches.unitIsOfType(g.unitType("infantry")), Matches.unitIsOwnedBy(g.player(JP))));
    final Route route = new Route(g.territory("Manchuria"), g.territory("Buryatia S.S.R."));
    final String error = ((MoveDelegate) g.delegate()).move(units, route, Collections.emptyList(), new HashMap<>());
    return error == null ? "allowed" : error;
  }

  /** Convoy raids: enemy subs next to UK, US and Japanese complexes cut income; Germany is immune. */
  private static ScenarioJson.Obj convoy(final String file) throws Exception {
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

  private static void add(final ScenarioGame g, final String zone, final String owner, final int subs) {
    if (subs > 0) {
      g.addUnits(zone, "submarine", owner, subs);
    }
  }

  private static Map<String, Integer> enemySubs(final ScenarioGame g, final String victim, final String... zones) {
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
  private static int income(final ScenarioGame g, final String prefix, final String player, final Runnable setup)
      throws Exception {
    g.enter(prefix + "TechActivation", 1);
    setup.run();
    final int before = g.pus(player);
    g.enter(prefix + "EndTurn", 1);
    return g.pus(player) - before;
  }

  private static int production(final ScenarioGame g, final String player) {
    int total = 0;
    for (final Territory t : g.data.getMap().getTerritories()) {
      if (t.getOwner().equals(g.player(player)) && TerritoryAttachment.get(t) != null) {
        total += TerritoryAttachment.get(t).getProduction();
      }
    }
    return total;
  }

  /** 15 victory cities: Allies win with 11, Axis with 10, checked at the end of the round. */
  private static ScenarioJson.Obj victory(final String file) throws Exception {
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

  private static Map<String, Integer> victoryCities(final GameData data) {
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
  private static ScenarioJson.Obj strengths(final ScenarioGame g, final String player, final String unit,
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
  private static int attackWithArtillery(final ScenarioGame g, final String player, final Territory where) {
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

  /** True when the game data survives the copy the engine (and every AI purchase) makes. */
  static boolean cloneable(final GameData data) {
    data.acquireReadLock();
    try {
      return GameDataUtils.cloneGameData(data, true) != null;
    } finally {
      data.releaseReadLock();
    }
  }
}
