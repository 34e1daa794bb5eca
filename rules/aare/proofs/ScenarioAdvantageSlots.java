package forge;

/**
 * AARe's second national advantages, declared in round 2 by nations that declared none in round 1.
 *
 * <p>Two games in which nobody declares in round 1. In the first, Russia declares Lend-Lease at the
 * start of its round-2 turn (the Allies' one second advantage) and Germany the Atlantic Wall at the
 * start of its turn; in the second, Russia declares nothing and Britain declares UK Lend-Lease. The
 * facts are what each nation's steps then offer: a nation that let round 1 pass has no first
 * advantage left, and a second advantage, once taken, is taken for its side.
 */
final class ScenarioAdvantageSlots {
  private ScenarioAdvantageSlots() {}

  static ScenarioJson.Obj second(final String file) throws Exception {
    final ScenarioJson.Obj out = ScenarioJson.obj();
    final ScenarioGame a = new ScenarioGame(file);
    out.put("russianStart2", offered(a, "russianUserActions"));
    a.act("userActionAttachmentRuLendLease");
    out.put("russianAfterDeclaring2", a.validActions());
    out.put("germanStart2", offered(a, "germanUserActions"));
    a.act("userActionAttachmentGeAtlanticWall");
    out.put("germanAfterDeclaring2", a.validActions());
    out.put("germanMobilize2", offered(a, "germanMobilizeUserActions"));
    out.put("britishStart2", offered(a, "britishUserActions"));
    out.put("britishMobilize2", offered(a, "britishMobilizeUserActions"));
    out.put("americanStart2", offered(a, "americanUserActions"));
    a.stop();
    final ScenarioGame b = new ScenarioGame(file);
    out.put("britishStart2WhenRussiaWaits", offered(b, "britishUserActions"));
    b.act("userActionAttachmentUkLendLease");
    out.put("britishAfterDeclaring2", b.validActions());
    out.put("americanStart2AfterBritain", offered(b, "americanUserActions"));
    out.put("americanMobilize2AfterBritain", offered(b, "americanMobilizeUserActions"));
    b.stop();
    return out;
  }

  /** What STEP of round 2 offers its nation (the game passes round 1 with nobody declaring). */
  private static java.util.List<String> offered(final ScenarioGame g, final String step) throws Exception {
    g.enter(step, 2);
    return g.validActions();
  }
}
