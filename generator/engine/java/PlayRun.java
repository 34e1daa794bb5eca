package forge;

import java.io.File;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import games.strategy.engine.ClientContext;
import games.strategy.engine.data.GameData;
import games.strategy.engine.data.GameParser;
import games.strategy.engine.data.GameSequence;
import games.strategy.engine.data.GameStep;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.delegate.DelegateExecutionManager;
import games.strategy.engine.delegate.IDelegate;
import games.strategy.engine.framework.GameDataUtils;
import games.strategy.engine.framework.ServerGame;
import games.strategy.engine.gamePlayer.IGamePlayer;
import games.strategy.engine.message.IRemoteMessenger;
import games.strategy.engine.message.RemoteName;
import games.strategy.engine.random.IRandomSource;
import games.strategy.net.HeadlessServerMessenger;
import games.strategy.net.Messengers;
import games.strategy.sound.HeadlessSoundChannel;
import games.strategy.triplea.ResourceLoader;
import games.strategy.triplea.TripleA;
import games.strategy.triplea.ai.proAI.ProAI;
import games.strategy.triplea.delegate.EditDelegate;
import games.strategy.triplea.settings.ClientSetting;
import games.strategy.triplea.ui.AbstractUIContext;
import games.strategy.triplea.ui.display.HeadlessDisplay;

/**
 * One all-AI game of one file: parse, set up a headless ServerGame, drive its steps for N
 * rounds on this thread, stop, and describe what happened (see PlayReport for the layout).
 *
 * <p>The steps are driven the way ServerGame.runStep does it, minus the autosaves (which cost a
 * third of the run time and write into user.home): startStep, waitForPlayerToFinishStep, endStep,
 * sequence.next. Running them on our thread means an exception thrown by a delegate or an AI
 * arrives here, with the sequence still pointing at the step that threw.
 */
final class PlayRun {
  static final Map<String, String> AI_TYPES = Map.of(
      "fast", TripleA.FAST_COMPUTER_PLAYER_TYPE,
      "pro", TripleA.PRO_COMPUTER_PLAYER_TYPE,
      "weak", TripleA.WEAK_COMPUTER_PLAYER_TYPE);

  private final String path;
  private final int rounds;
  private final String ai;
  private final long seed;
  private final ActionPolicy actions;
  private final PrintStream events;

  PlayRun(final String path, final int rounds, final String ai, final long seed, final String actions,
      final PrintStream events) {
    this.path = path;
    this.rounds = rounds;
    this.ai = ai;
    this.seed = seed;
    this.actions = new ActionPolicy(actions, seed, path);
    this.events = events;
  }

  /** Plays the game and returns the report as JSON text; never throws. */
  String run() {
    ErrorCapture.reset();
    PlayReport.resetPeakHeap();
    ErrorCapture.position(0, "parse", null);
    final PlayReport report = new PlayReport(path, rounds, ai, seed, actions.taken, actions.opened,
        actions.deliveries);
    final long start = System.nanoTime();
    GameData data = null;
    try {
      Determinism.reset(seed);
    } catch (final Exception e) {
      ErrorCapture.record("exception", "cannot make the AI deterministic: " + ForgeHarness.describe(e), e);
    }
    final GameParser parser = new GameParser(path);
    try (InputStream in = SafeInput.open(path)) {
      data = parser.parse(in, new AtomicReference<>(), false);
    } catch (final Throwable t) {
      report.parseError = ForgeHarness.describe(t);
    }
    report.saxErrors = ForgeHarness.saxErrors(parser);
    report.parseMs = millis(start);
    if (data == null) {
      return report.render(null);
    }
    report.describeGame(data);
    try {
      useMapResources(data);
    } catch (final ReflectiveOperationException e) {
      ErrorCapture.record("exception", "cannot read the map's texts: " + ForgeHarness.describe(e), e);
    }
    if (rounds <= 0) {
      return report.render(data);
    }
    ServerGame game = null;
    try {
      final long setup = System.nanoTime();
      game = setUp(data, report);
      report.setupMs = millis(setup);
      play(game, data, report);
    } catch (final Throwable t) {
      // Setup failures and harness bugs: still a report, naming where it happened.
      ErrorCapture.record("exception", ForgeHarness.describe(t), t);
    } finally {
      stop(game);
    }
    report.totalMs = millis(start);
    return report.render(data);
  }

  private ServerGame setUp(final GameData data, final PlayReport report) throws Exception {
    ErrorCapture.position(0, "setup", null);
    final Map<String, String> types = new LinkedHashMap<>();
    for (final PlayerID p : data.getPlayerList().getPlayers()) {
      types.put(p.getName(), AI_TYPES.get(ai));
    }
    final Set<IGamePlayer> players = data.getGameLoader().createPlayers(types);
    Determinism.serialOddsCalculator(players);
    final ServerGame game =
        new ServerGame(data, players, new HashMap<>(), new Messengers(new HeadlessServerMessenger()));
    // Common dice: a roll's stream is keyed by what it is for, so paired games share a battle's dice.
    game.setRandomSource(new CommonDice(seed, data));
    // TripleA.startGame does this (an "evil hack" in its words), but it also insists on the
    // map's image folder, which a generated game does not have: replicate its non-UI part.
    if (data.getDelegateList().getDelegate("edit") == null) {
      final EditDelegate edit = new EditDelegate();
      edit.initialize("edit", "edit");
      data.getDelegateList().addDelegate(edit);
      game.addDelegateMessenger(edit);
    }
    game.addDisplay(new HeadlessDisplay());
    game.addSoundChannel(new HeadlessSoundChannel());
    wrapDelegates(game, data, report.actions);
    // The AI clones the game data in every purchase phase and silently buys nothing if that
    // fails; clone once here so such a failure is reported instead of hidden.
    // Play on afterwards: the report then also shows what the failure costs (no purchases).
    final String problem = "the game data cannot be saved and reloaded, which the AI needs to plan every purchase";
    data.acquireReadLock();
    try {
      if (GameDataUtils.cloneGameData(data, true) == null) {
        ErrorCapture.record("exception", problem, null);
      }
    } catch (final Throwable t) {
      ErrorCapture.record("exception", problem + " <- " + ForgeHarness.describe(t), t);
    } finally {
      data.releaseReadLock();
    }
    return game;
  }

  /** Re-registers every delegate remote with an ActionLog in front of the engine's wrapper. */
  private static void wrapDelegates(final ServerGame game, final GameData data, final ActionLog actions)
      throws ReflectiveOperationException {
    final Field f = ServerGame.class.getDeclaredField("delegateExecutionManager");
    f.setAccessible(true);
    final DelegateExecutionManager manager = (DelegateExecutionManager) f.get(game);
    final IRemoteMessenger remotes = game.getRemoteMessenger();
    for (final IDelegate d : data.getDelegateList()) {
      if (d.getRemoteType() == null) {
        continue;
      }
      final RemoteName name = ServerGame.getRemoteName(d);
      final Object inner = manager.createInboundImplementation(d, new Class<?>[] {d.getRemoteType()});
      remotes.unregisterRemote(name);
      remotes.registerRemote(actions.wrap(d, inner), name);
    }
  }

  private void play(final ServerGame game, final GameData data, final PlayReport report) throws Exception {
    final Method startPersistent = method("startPersistentDelegates");
    final Method startStep = method("startStep", boolean.class);
    final Method waitForPlayer = method("waitForPlayerToFinishStep");
    final Method endStep = method("endStep");
    final GameSequence sequence = data.getSequence();
    // As ServerGame.startGame does for a new game (a saved game would replay its step instead).
    data.getProperties().set(ServerGame.GAME_HAS_BEEN_SAVED_PROPERTY, Boolean.TRUE);
    ErrorCapture.position(sequence.getRound(), "startPersistentDelegates", null);
    startPersistent.invoke(game);
    report.startRound(data);
    long roundStart = System.nanoTime();
    while (!game.isGameOver() && game.isGameSequenceRunning() && sequence.getRound() <= rounds) {
      final GameStep step = sequence.getStep();
      if (step.hasReachedMaxRunCount()) {
        // One-time steps (bids, game init) are skipped from round 2 on, as runStep does.
        if (sequence.next()) {
          report.endRound(data, millis(roundStart));
          roundStart = System.nanoTime();
        }
        continue;
      }
      final int round = sequence.getRound();
      final PlayerID player = step.getPlayerId();
      ErrorCapture.position(round, step.getName(), player == null ? null : player.getName());
      progress(round, sequence.getStepIndex(), sequence.size(), step.getName());
      report.beforeStep(data, step);
      // The AIs' own random choices keyed by step, as the dice are by roll (Determinism.step).
      Determinism.step(seed, round, step.getName());
      final long stepStart = System.nanoTime();
      try {
        startStep.invoke(game, false);
        if (!game.isGameOver()) {
          actions.act(data, step);
        }
        if (!game.isGameOver()) {
          waitForPlayer.invoke(game);
        }
        if (!game.isGameOver()) {
          endStep.invoke(game);
        }
      } catch (final InvocationTargetException e) {
        final Throwable cause = e.getCause() == null ? e : e.getCause();
        ErrorCapture.record("exception", ForgeHarness.describe(cause), cause);
        report.stoppedAt = step.getName();
        break;
      } finally {
        report.afterStep(data, step, System.nanoTime() - stepStart);
      }
      if (game.isGameOver()) {
        break;
      }
      if (sequence.next()) {
        data.getHistory().getHistoryWriter().startNextRound(sequence.getRound());
        report.endRound(data, millis(roundStart));
        roundStart = System.nanoTime();
      }
    }
    report.gameOver = game.isGameOver() || !game.isGameSequenceRunning();
    if (game.isGameOver()) {
      report.endGame(data);
    }
  }

  private void progress(final int round, final int index, final int steps, final String step) {
    events.print(new Json.Obj().putStr("event", "step").putStr("path", path).putNum("round", round)
        .putNum("index", index).putNum("steps", steps).putNum("rounds", rounds).putStr("step", step) + "\n");
    events.flush();
  }

  private static void stop(final ServerGame game) {
    ErrorCapture.position(ErrorCapture.round, "stop", null);
    try {
      if (game != null && !game.isGameOver()) {
        game.stopGame();
      }
    } catch (final Throwable t) {
      ErrorCapture.record("exception", "stopping the game: " + ForgeHarness.describe(t), t);
    } finally {
      // ProAI keeps its odds calculator (holding the GameData) in a static.
      ProAI.gameOverClearCache();
    }
  }

  /** Reads the engine settings the harness depends on; fails loudly instead of silently later. */
  static void prepareEngine() throws ReflectiveOperationException {
    // Default 400 ms sleep after every AI action.
    ClientSetting.AI_PAUSE_DURATION.save("0");
    // Reads ./game_engine.properties; without it the AI's GameData clone fails and it never buys.
    ClientContext.engineVersion();
    installEmptyMapResources();
  }

  /**
   * Politics, user actions and trigger notifications read their texts through the UI context's
   * static ResourceLoader, which TripleA.startGame creates from the map's folder (a generated game
   * has none, and the engine's own lookup would prompt "Download Map?"). A loader over the empty
   * working folder gives them "no text set" instead of a NullPointerException.
   */
  private static void installEmptyMapResources() throws ReflectiveOperationException {
    installResources(new File(".").getAbsolutePath());
  }

  /**
   * The texts a game shows (notifications, victory messages, action texts) come from its map's
   * folder, as in the client: where the map is installed (the folder the tool gives as forge.maps),
   * that folder, else the empty working folder. A triggered victory ends the game only when the map
   * has its message, so without the map's texts a check never saw one. The engine caches the texts
   * of the last map read (NotificationMessages, PoliticsText, UserActionText): each game reads anew.
   */
  private static void useMapResources(final GameData data) throws ReflectiveOperationException {
    final String maps = System.getProperty("forge.maps");
    final Object name = data.getProperties().get("mapName");
    String folder = new File(".").getAbsolutePath();
    if (maps != null && name != null && !name.toString().isEmpty()) {
      for (final File candidate : new File[] {new File(new File(maps, name.toString()), "map"),
          new File(maps, name.toString())}) {
        if (candidate.isDirectory()) {
          folder = candidate.getAbsolutePath();
          break;
        }
      }
    }
    installResources(folder);
    for (final String cached : new String[] {"games.strategy.triplea.ui.NotificationMessages",
        "games.strategy.triplea.ui.PoliticsText", "games.strategy.triplea.ui.UserActionText"}) {
      final Class<?> type;
      try {
        type = Class.forName(cached);
      } catch (final ClassNotFoundException e) {
        continue;
      }
      for (final Field f : type.getDeclaredFields()) {
        if (java.lang.reflect.Modifier.isStatic(f.getModifiers()) && f.getType() == type) {
          f.setAccessible(true);
          f.set(null, null);
        }
      }
    }
  }

  private static void installResources(final String folder) throws ReflectiveOperationException {
    final Constructor<ResourceLoader> make = ResourceLoader.class.getDeclaredConstructor(String.class, String[].class);
    make.setAccessible(true);
    final Field loader = AbstractUIContext.class.getDeclaredField("resourceLoader");
    loader.setAccessible(true);
    loader.set(null, make.newInstance("forge-check", new String[] {folder}));
  }

  private static Method method(final String name, final Class<?>... params) throws NoSuchMethodException {
    final Method m = ServerGame.class.getDeclaredMethod(name, params);
    m.setAccessible(true);
    return m;
  }

  static long millis(final long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }

  /**
   * Dice from one seeded generator, every roll from one stream: the scenarios' dice (their proofs
   * were made with them). Games play with CommonDice.
   */
  static final class SeededDice implements IRandomSource {
    private final Random random;

    SeededDice(final long seed) {
      random = new Random(seed);
    }

    @Override
    public synchronized int getRandom(final int max, final String annotation) {
      return random.nextInt(max);
    }

    @Override
    public synchronized int[] getRandom(final int max, final int count, final String annotation) {
      final int[] out = new int[count];
      for (int i = 0; i < count; i++) {
        out[i] = random.nextInt(max);
      }
      return out;
    }
  }
}
