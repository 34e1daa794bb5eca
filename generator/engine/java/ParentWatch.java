package forge;

/**
 * Ties a harness JVM's life to the process that started it. The Python side starts each JVM in a
 * session of its own (so a timeout can kill the whole group), which also means a killed test run
 * or sweep would leave the JVM playing on for an hour; with this the JVM stops when its parent
 * does.
 */
final class ParentWatch {
  private ParentWatch() {}

  static void start() {
    ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> Runtime.getRuntime().halt(3)));
  }
}
