package forge;

import java.io.File;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;

import games.strategy.engine.ClientContext;
import games.strategy.engine.data.Change;
import games.strategy.engine.data.GameData;
import games.strategy.engine.data.GameParser;
import games.strategy.engine.data.GameSequence;
import games.strategy.engine.data.GameStep;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.ProductionRule;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.Unit;
import games.strategy.engine.data.UnitType;
import games.strategy.engine.data.changefactory.ChangeFactory;
import games.strategy.engine.delegate.IDelegate;
import games.strategy.engine.framework.ServerGame;
import games.strategy.engine.gamePlayer.IGamePlayer;
import games.strategy.net.HeadlessServerMessenger;
import games.strategy.net.Messengers;
import games.strategy.sound.HeadlessSoundChannel;
import games.strategy.triplea.ResourceLoader;
import games.strategy.triplea.TripleA;
import games.strategy.triplea.attachments.RulesAttachment;
import games.strategy.triplea.attachments.UserActionAttachment;
import games.strategy.triplea.delegate.UserActionDelegate;
import games.strategy.triplea.settings.ClientSetting;
import games.strategy.triplea.ui.AbstractUIContext;
import games.strategy.triplea.ui.display.HeadlessDisplay;

/**
 * A parsed game inside a headless ServerGame whose steps the scenario drives itself: it enters a
 * step (the delegate's start, with the engine's own "before" triggers), calls the delegate the
 * way a player's UI would (user actions, moves), and leaves it (end, "after" triggers). Nobody
 * plays: steps the scenario only passes through are started and ended with no player input.
 */
final class ScenarioGame {
  final GameData data;
  /** Every step started, in order, as "round:step". */
  final List<String> started = new ArrayList<>();
  /** Every step started, in order: {round, step, player, delegate, pus (its player's, at the start)}. */
  final List<ScenarioJson.Obj> stepsRun = new ArrayList<>();
  /** Every request for dice, in order: {sides, count, annotation, dice}. */
  final List<ScenarioJson.Obj> rolls = new ArrayList<>();
  /** A folder with the map's .properties files (notifications, actionstext...), or null. */
  static String resources;
  private final ServerGame game;
  private final RecordingDice dice;
  private final Method startStep;
  private final Method endStep;
  private boolean inStep;

  ScenarioGame(final String path) throws Exception {
    this(path, false);
  }

  /** EAGER: every player scrambles and intercepts with all it may (EagerDefender). */
  ScenarioGame(final String path, final boolean eager) throws Exception {
    ClientSetting.AI_PAUSE_DURATION.save("0");
    ClientContext.engineVersion();
    try (InputStream in = SafeInput.open(path)) {
      data = new GameParser(path).parse(in, new AtomicReference<>(), false);
    }
    // User actions and victory triggers read their texts through the UI's resource loader, which a
    // headless game never sets: give it the map's .properties files (a folder the caller names, as
    // the packaged map holds them), else an empty folder (every text then has its default, and a
    // victory trigger without its message does not end the game).
    final File empty = resources != null ? new File(resources) : new File(System.getProperty("user.home"), "scenario-resources");
    empty.mkdirs();
    final Constructor<ResourceLoader> loader =
        ResourceLoader.class.getDeclaredConstructor(String.class, String[].class);
    loader.setAccessible(true);
    final Field uiLoader = AbstractUIContext.class.getDeclaredField("resourceLoader");
    uiLoader.setAccessible(true);
    uiLoader.set(null, loader.newInstance("scenario", new String[] {empty.getPath()}));
    final Map<String, String> types = new LinkedHashMap<>();
    for (final PlayerID p : data.getPlayerList().getPlayers()) {
      types.put(p.getName(), TripleA.WEAK_COMPUTER_PLAYER_TYPE);
    }
    final Set<IGamePlayer> players = new java.util.HashSet<>();
    for (final String name : types.keySet()) {
      if (eager) {
        players.add(new EagerDefender(name, TripleA.WEAK_COMPUTER_PLAYER_TYPE));
      }
    }
    if (!eager) {
      players.addAll(data.getGameLoader().createPlayers(types));
    }
    game = new ServerGame(data, players, new HashMap<>(), new Messengers(new HeadlessServerMessenger()));
    // A scenario's facts never depend on the clock; every die is recorded for the facts.
    dice = new RecordingDice(new PlayRun.SeededDice(0), rolls);
    game.setRandomSource(dice);
    game.addDisplay(new HeadlessDisplay());
    game.addSoundChannel(new HeadlessSoundChannel());
    startStep = ServerGame.class.getDeclaredMethod("startStep", boolean.class);
    startStep.setAccessible(true);
    endStep = ServerGame.class.getDeclaredMethod("endStep");
    endStep.setAccessible(true);
    final Method persistent = ServerGame.class.getDeclaredMethod("startPersistentDelegates");
    persistent.setAccessible(true);
    data.getProperties().set(ServerGame.GAME_HAS_BEEN_SAVED_PROPERTY, Boolean.TRUE);
    invoke(persistent);
  }

  /** From now on SCRIPT chooses the dice it answers for (the others stay seeded). */
  void loadDice(final DiceScript script) {
    dice.script = script;
  }

  /** Loaded dice: the faces (1..sides) of a request, or null to leave it to the seeded dice. */
  interface DiceScript {
    int[] faces(int sides, int count, String annotation);

    /** Every die of a roll whose annotation starts with PREFIX hits (1), every other die misses. */
    static DiceScript hitsWhere(final String prefix) {
      return split(prefix, 1, Integer.MAX_VALUE);
    }

    /** Every die of a roll whose annotation starts with PREFIX misses, every other die hits. */
    static DiceScript missesWhere(final String prefix) {
      return split(prefix, Integer.MAX_VALUE, 1);
    }

    // A face past the die's sides stands for its highest face: a miss.
    private static DiceScript split(final String prefix, final int matching, final int others) {
      return (sides, count, annotation) -> {
        final int[] faces = new int[count];
        java.util.Arrays.fill(faces, Math.min(sides, annotation.startsWith(prefix) ? matching : others));
        return faces;
      };
    }
  }

  /**
   * Runs ACTION the way a player's call into the current delegate runs: inside the engine's
   * delegate execution, which a battle leaves and re-enters while it tells the players of its
   * anti-aircraft casualties.
   */
  <T> T asPlayer(final java.util.concurrent.Callable<T> action) throws Exception {
    final Field field = ServerGame.class.getDeclaredField("delegateExecutionManager");
    field.setAccessible(true);
    final games.strategy.engine.delegate.DelegateExecutionManager manager =
        (games.strategy.engine.delegate.DelegateExecutionManager) field.get(game);
    manager.enterDelegateExecution();
    try {
      return action.call();
    } finally {
      manager.leaveDelegateExecution();
    }
  }

  GameStep step() {
    return data.getSequence().getStep();
  }

  int round() {
    return data.getSequence().getRound();
  }

  /** Plays every step (without player input) until STEP of ROUND has been started. */
  void enter(final String stepName, final int round) throws Exception {
    final GameSequence sequence = data.getSequence();
    int guard = 0;
    while (!(inStep && step().getName().equals(stepName) && round() == round)) {
      if (++guard > 10_000 || round() > round) {
        throw new IllegalStateException("step " + stepName + " of round " + round + " not reached");
      }
      if (!inStep) {
        if (step().hasReachedMaxRunCount()) {
          next(sequence);
          continue;
        }
        started.add(round() + ":" + step().getName());
        stepsRun.add(stepRun());
        invoke(startStep, false);
        inStep = true;
        continue;
      }
      leave();
      next(sequence);
    }
  }

  private ScenarioJson.Obj stepRun() {
    final PlayerID player = step().getPlayerId();
    return ScenarioJson.obj()
        .put("round", round())
        .put("step", step().getName())
        .put("player", player == null ? null : player.getName())
        .put("delegate", step().getDelegate().getName())
        .put("pus", player == null ? null : player.getResources().getQuantity("PUs"));
  }

  /** Ends the current step (the delegate's end, with "after" triggers). */
  void leave() throws Exception {
    if (inStep) {
      invoke(endStep);
      inStep = false;
      final PlayerID player = step().getPlayerId();
      stepsRun.get(stepsRun.size() - 1).put("pusAfter", player == null ? null : player.getResources().getQuantity("PUs"));
    }
  }

  private void next(final GameSequence sequence) {
    if (sequence.next()) {
      data.getHistory().getHistoryWriter().startNextRound(sequence.getRound());
    }
  }

  boolean gameOver() {
    return game.isGameOver() || !game.isGameSequenceRunning();
  }

  @SuppressWarnings("unchecked")
  <T extends IDelegate> T delegate() {
    return (T) step().getDelegate();
  }

  PlayerID player(final String name) {
    return data.getPlayerList().getPlayerId(name);
  }

  Territory territory(final String name) {
    return data.getMap().getTerritory(name);
  }

  UnitType unitType(final String name) {
    return data.getUnitTypeList().getUnitType(name);
  }

  int count(final String territory, final String unit, final String owner) {
    return territory(territory).getUnits().getUnitCount(unitType(unit), player(owner));
  }

  /** Unit type -> how many OWNER has in TERRITORY. */
  java.util.Map<String, Integer> unitsOf(final String territory, final String owner) {
    final java.util.Map<String, Integer> counts = new java.util.TreeMap<>();
    for (final Unit u : territory(territory).getUnits().getUnits()) {
      if (u.getOwner().equals(player(owner))) {
        counts.merge(u.getType().getName(), 1, Integer::sum);
      }
    }
    return counts;
  }

  /** How many units in TERRITORY are not OWNER's. */
  int notOwnedBy(final String territory, final String owner) {
    int others = 0;
    for (final Unit u : territory(territory).getUnits().getUnits()) {
      others += u.getOwner().equals(player(owner)) ? 0 : 1;
    }
    return others;
  }

  int pus(final String player) {
    return player(player).getResources().getQuantity("PUs");
  }

  /** Changes the game state through the engine's own change objects. */
  void change(final Change change) {
    data.performChange(change);
  }

  List<Unit> addUnits(final String territory, final String unit, final String owner, final int quantity) {
    final List<Unit> units = unitType(unit).create(quantity, player(owner));
    change(ChangeFactory.addUnits(territory(territory), units));
    return units;
  }

  void setOwner(final String territory, final String owner) {
    change(ChangeFactory.changeOwner(territory(territory), player(owner)));
  }

  /** The user actions the current user-actions step offers its player, by attachment name. */
  List<String> validActions() {
    final List<String> names = new ArrayList<>();
    for (final UserActionAttachment a : ((UserActionDelegate) delegate()).getValidActions()) {
      names.add(a.getName());
    }
    names.sort(null);
    return names;
  }

  /** The current player takes the user action NAME, as its button in the UI would. */
  void act(final String name) {
    final UserActionDelegate delegate = delegate();
    final PlayerID player = step().getPlayerId();
    final UserActionAttachment action = (UserActionAttachment) player.getAttachment(name);
    if (action == null) {
      throw new IllegalArgumentException("no user action " + name + " on " + player.getName());
    }
    delegate.attemptAction(action);
  }

  boolean isSwitchOn(final String player, final String condition) {
    return ((RulesAttachment) player(player).getAttachment(condition)).getSwitch();
  }

  /** Production costs (PUs) of a player's frontier, by rule name. */
  Map<String, Integer> frontier(final String player) {
    final Map<String, Integer> costs = new TreeMap<>();
    for (final ProductionRule rule : player(player).getProductionFrontier().getRules()) {
      costs.put(rule.getName(), rule.getCosts().getInt(data.getResourceList().getResource("PUs")));
    }
    return costs;
  }

  void stop() {
    try {
      if (!game.isGameOver()) {
        game.stopGame();
      }
    } catch (final RuntimeException e) {
      // The scenario's facts are already written; a failing shutdown changes nothing.
    }
  }

  private void invoke(final Method method, final Object... args) throws Exception {
    try {
      method.invoke(game, args);
    } catch (final InvocationTargetException e) {
      final Throwable cause = e.getCause();
      if (cause instanceof Exception) {
        throw (Exception) cause;
      }
      throw e;
    }
  }

  /** A dice source that records what it is asked for and what it answers. */
  static final class RecordingDice implements games.strategy.engine.random.IRandomSource {
    private final games.strategy.engine.random.IRandomSource dice;
    private final List<ScenarioJson.Obj> log;
    DiceScript script;

    RecordingDice(final games.strategy.engine.random.IRandomSource dice, final List<ScenarioJson.Obj> log) {
      this.dice = dice;
      this.log = log;
    }

    @Override
    public int getRandom(final int max, final String annotation) {
      return getRandom(max, 1, annotation)[0];
    }

    @Override
    public int[] getRandom(final int max, final int count, final String annotation) {
      final int[] faces = script == null ? null : script.faces(max, count, annotation);
      final int[] out = faces == null ? dice.getRandom(max, count, annotation) : new int[count];
      for (int i = 0; faces != null && i < count; i++) {
        out[i] = faces[i] - 1;
      }
      final List<Integer> values = new ArrayList<>();
      for (final int d : out) {
        values.add(d + 1); // the engine's dice are zero based; a die shows 1..max
      }
      log.add(ScenarioJson.obj().put("sides", max).put("count", count).put("annotation", annotation).put("dice", values));
      return out;
    }
  }

  static Collection<String> names(final Collection<? extends games.strategy.engine.data.Named> items) {
    final List<String> out = new ArrayList<>();
    for (final games.strategy.engine.data.Named n : items) {
      out.add(n.getName());
    }
    return out;
  }
}
