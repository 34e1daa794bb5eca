// Pointing at a territory on a board shows its facts beside the board; a click keeps them shown
// while the pointer is elsewhere. Without the script every territory's facts are listed there.
"use strict";
document.documentElement.classList.add("js");
for (const figure of document.querySelectorAll("figure.board")) {
  const facts = document.getElementById(figure.dataset.board + "-facts");
  let kept = null;
  const show = (id) => {
    for (const shown of facts.querySelectorAll(".shown")) shown.classList.remove("shown");
    for (const on of figure.querySelectorAll(".on")) on.classList.remove("on");
    const section = id ? document.getElementById(id) : null;
    if (section) {
      section.classList.add("shown");
      figure.querySelector(`path[data-t="${id}"]`).classList.add("on");
    }
    facts.classList.toggle("chosen", section !== null);
  };
  figure.addEventListener("pointerover", (event) => {
    if (event.target.dataset.t) show(event.target.dataset.t);
  });
  figure.addEventListener("pointerleave", () => show(kept));
  figure.addEventListener("click", (event) => {
    kept = event.target.dataset.t || null;
    show(kept);
  });
}
