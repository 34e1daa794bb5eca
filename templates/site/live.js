// Served by `triplea-forge serve` only: the page reloads itself once a build after a save changed it.
"use strict";
(() => {
  const loaded = document.currentScript.dataset.version;
  const look = async () => {
    try {
      const answer = await fetch("/_forge/version", { cache: "no-store" });
      if ((await answer.text()) !== loaded) {
        location.reload();
        return;
      }
    } catch {
      // The server stopped (Ctrl-C): the page stays as it is.
      return;
    }
    setTimeout(look, 200);
  };
  setTimeout(look, 200);
})();
