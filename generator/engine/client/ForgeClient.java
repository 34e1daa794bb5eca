import games.strategy.engine.data.GameData;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.Unit;
import games.strategy.engine.framework.GameRunner;
import games.strategy.engine.framework.startup.mc.GameSelectorModel;
import games.strategy.engine.framework.startup.ui.LocalSetupPanel;
import games.strategy.triplea.TripleAUnit;
import games.strategy.triplea.ui.IUIContext;
import games.strategy.triplea.ui.TabbedProductionPanel;
import games.strategy.triplea.ui.TripleAFrame;
import games.strategy.util.IntegerMap;
import java.awt.Component;
import java.awt.Container;
import java.awt.Frame;
import java.awt.GraphicsEnvironment;
import java.awt.Window;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Predicate;
import javax.swing.AbstractButton;
import javax.swing.JDialog;
import javax.swing.JLabel;
import javax.swing.JList;
import javax.swing.ListModel;
import javax.swing.SwingUtilities;

/**
 * Plays the part of a player at TripleA 1.9's start screens (triplea-forge `play` and its GUI test).
 *
 * <p>java -cp CLASSES:triplea.jar ForgeClient GAME [--human PLAYER] [--look] (CLASSES: where
 * generator/engine/client.py had it compiled against that jar)
 *
 * <p>Starts the client, chooses GAME in the game chooser, starts a local game (with --human, every
 * other player is the Fast AI) and presses Play. With --look it then shows what a player sees: the
 * purchase screen of every player who can buy (the client's own dialog), and whether the client has
 * a picture for every unit on the board; it waits for a line on stdin before the first purchase
 * screen and before closing each one, so screenshots can be taken. Buttons are found by their labels and pressed with doClick, which
 * runs the same listeners as a mouse click. Everything it sees is printed as FORGE-GUI lines.
 */
public class ForgeClient {
  interface Probe<T> { T get() throws Exception; }

  static final BufferedReader INPUT = new BufferedReader(new InputStreamReader(System.in));

  public static void main(String[] args) throws Exception {
    String game = args[0];
    String human = null;
    boolean look = false;
    for (int i = 1; i < args.length; i++) {
      if (args[i].equals("--human")) human = args[++i];
      if (args[i].equals("--look")) look = true;
    }
    GameRunner.main(new String[] {"triplea.doNotCheckForUpdates=true"});
    GameSelectorModel model = (GameSelectorModel) field(GameRunner.class, "gameSelectorModel").get(null);
    // The client loads a default game in the background first; choosing before it is done
    // would let it replace our choice.
    await("the default game", () -> model.getGameData());
    click("Select Map");
    JList<?> list = await("the game chooser", () -> (JList<?>) find(JList.class, c -> true));
    List<String> names = new ArrayList<>();
    SwingUtilities.invokeAndWait(() -> {
      ListModel<?> entries = list.getModel();
      for (int i = 0; i < entries.getSize(); i++) names.add(entries.getElementAt(i).toString());
    });
    say("listed: " + String.join(" | ", names));
    int index = names.indexOf(game);
    if (index < 0) fail("game not listed: " + game);
    SwingUtilities.invokeAndWait(() -> list.setSelectedIndex(index));
    click("OK");
    await("the chosen game", () -> game.equals(model.getGameName()) && model.getGameData() != null ? game : null);
    click("Start Local Game");
    await("Play enabled", () -> { AbstractButton b = button("Play"); return b != null && b.isEnabled() ? b : null; });
    if (human != null) computerPlaysAllBut(human);
    click("Play");
    String title = "TripleA - " + game;
    Frame frame = await("the game window", () -> {
      for (Frame f : Frame.getFrames()) if (f.isShowing() && f.getTitle().equals(title)) return f;
      return null;
    });
    // The whole screen for the board: without a window manager (xvfb-run) the frame keeps its packed size.
    SwingUtilities.invokeAndWait(() ->
        frame.setBounds(GraphicsEnvironment.getLocalGraphicsEnvironment().getMaximumWindowBounds()));
    say("game window: " + title);
    if (look) {
      INPUT.readLine();  // the board is looked at first
      look((TripleAFrame) frame);
    }
  }

  /** Every player but `human` to the Fast AI, in the local setup panel's rows. */
  static void computerPlaysAllBut(String human) throws Exception {
    LocalSetupPanel panel = (LocalSetupPanel) find(LocalSetupPanel.class, c -> true);
    List<?> rows = (List<?>) field(LocalSetupPanel.class, "playerTypes").get(panel);
    boolean found = false;
    for (Object row : rows) {
      Method name = row.getClass().getDeclaredMethod("getPlayerName");
      Method type = row.getClass().getDeclaredMethod("setPlayerType", String.class);
      name.setAccessible(true);
      type.setAccessible(true);
      String player = (String) name.invoke(row);
      found |= player.equals(human);
      String chosen = player.equals(human) ? "Human" : "Fast (AI)";
      SwingUtilities.invokeAndWait(() -> {
        try { type.invoke(row, chosen); } catch (Exception e) { throw new RuntimeException(e); }
      });
      say("player " + player + ": " + chosen);
    }
    if (!found) fail("no player named " + human);
  }

  /** The purchase screen of every player who can buy, and the pictures of the units on the board. */
  static void look(TripleAFrame frame) throws Exception {
    GameData data = (GameData) field(TripleAFrame.class, "data").get(frame);
    IUIContext ui = (IUIContext) field(TripleAFrame.class, "uiContext").get(frame);
    for (PlayerID player : data.getPlayerList().getPlayers()) {
      if (player.getProductionFrontier() == null || player.getProductionFrontier().getRules().isEmpty()) continue;
      // The client opens its own purchase screen at a human's purchase step: ours is the new one.
      List<Window> before = new ArrayList<>();
      SwingUtilities.invokeAndWait(() -> before.addAll(List.of(Window.getWindows())));
      // The dialog is modal: opened later on the event thread, it runs its own event loop there.
      SwingUtilities.invokeLater(() ->
          TabbedProductionPanel.getProduction(player, frame, data, false, new IntegerMap<>(), ui));
      JDialog dialog = await("the purchase screen of " + player.getName(), () -> {
        for (Window window : Window.getWindows()) {
          if (window instanceof JDialog && window.isShowing() && !before.contains(window)
              && !labels(window, "<html> x").isEmpty()) return (JDialog) window;
        }
        return null;
      });
      Thread.sleep(250);  // let it paint
      SwingUtilities.invokeAndWait(() -> {
        for (JLabel info : labels(dialog, "<html> x")) {
          String unit = "?";
          for (Component sibling : info.getParent().getComponents()) {
            if (sibling instanceof JLabel && sibling != info && ((JLabel) sibling).getIcon() == null) {
              String text = ((JLabel) sibling).getText();
              if (text != null && !text.isEmpty() && !text.startsWith("<html>") && !text.contains("/")) unit = text;
            }
          }
          say("purchase " + player.getName() + " " + unit + " " + (info.getIcon() != null ? "picture" : "none"));
        }
      });
      say("purchase screen open: " + player.getName());
      INPUT.readLine();  // the screenshot is taken
      SwingUtilities.invokeAndWait(() -> { dialog.setVisible(false); dialog.dispose(); });
    }
    TreeSet<String> board = new TreeSet<>();
    data.acquireReadLock();
    try {
      for (Territory territory : data.getMap().getTerritories()) {
        for (Unit unit : territory.getUnits().getUnits()) {
          TripleAUnit u = (TripleAUnit) unit;
          boolean damaged = u.getHits() > 0 || u.getUnitDamage() > 0;
          boolean drawn = ui.getUnitImageFactory().getImage(u.getType(), u.getOwner(), damaged, u.getDisabled()).isPresent();
          board.add("board " + u.getOwner().getName() + " " + u.getType().getName() + (damaged ? "(damaged)" : "")
              + " " + (drawn ? "picture" : "none"));
        }
      }
    } finally {
      data.releaseReadLock();
    }
    for (String line : board) say(line);
    say("looked");
  }

  static List<JLabel> labels(Container root, String start) {
    List<JLabel> found = new ArrayList<>();
    collect(root, c -> c instanceof JLabel && ((JLabel) c).getText() != null && ((JLabel) c).getText().startsWith(start),
        found);
    return found;
  }

  @SuppressWarnings("unchecked")
  static <T> void collect(Component c, Predicate<Component> test, List<T> into) {
    if (test.test(c)) into.add((T) c);
    if (c instanceof Container) for (Component child : ((Container) c).getComponents()) collect(child, test, into);
  }

  static Field field(Class<?> owner, String name) throws Exception {
    Field field = owner.getDeclaredField(name);
    field.setAccessible(true);
    return field;
  }

  static void say(String line) {
    System.out.println("FORGE-GUI " + line);
    System.out.flush();
  }

  static void click(String label) throws Exception {
    AbstractButton button = await("button " + label, () -> button(label));
    // invokeLater: the button may open a modal dialog, which would block invokeAndWait.
    SwingUtilities.invokeLater(button::doClick);
  }

  static <T> T await(String what, Probe<T> probe) throws Exception {
    long end = System.currentTimeMillis() + 60_000;
    while (System.currentTimeMillis() < end) {
      List<T> box = new ArrayList<>();
      SwingUtilities.invokeAndWait(() -> {
        try { T found = probe.get(); if (found != null) box.add(found); }
        catch (Exception e) { throw new RuntimeException(e); }
      });
      if (!box.isEmpty()) return box.get(0);
      Thread.sleep(100);
    }
    fail("timed out waiting for " + what);
    return null;
  }

  static void fail(String message) {
    say("failed: " + message);
    System.exit(3);
  }

  static AbstractButton button(String label) {
    return (AbstractButton) find(AbstractButton.class,
        c -> label.equals(((AbstractButton) c).getText()) && c.isShowing());
  }

  static Component find(Class<?> type, Predicate<Component> test) {
    for (Window window : Window.getWindows()) {
      Component found = window.isShowing() ? search(window, type, test) : null;
      if (found != null) return found;
    }
    return null;
  }

  static Component search(Component c, Class<?> type, Predicate<Component> test) {
    if (type.isInstance(c) && test.test(c)) return c;
    if (c instanceof Container) {
      for (Component child : ((Container) c).getComponents()) {
        Component found = search(child, type, test);
        if (found != null) return found;
      }
    }
    return null;
  }
}
