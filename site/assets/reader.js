// warpbook: the reader's features beside warpbook.js. Every page works
// without this file; it adds "Copy as program" to the runnable snippets.
//
// window.warpbook.program(cellID) returns a promise of a snippet as a Go
// program of its own: the file assets/programs/PAGE.js, written by the
// build, holds them, and loads only when a reader reaches for a button.
(function () {
  "use strict";
  var wb = window.warpbook = window.warpbook || {};
  var root = document.documentElement.getAttribute("data-root") || "";
  var loading = {};

  function loadPrograms(key) {
    if (!loading[key]) {
      loading[key] = new Promise(function (resolve, reject) {
        var s = document.createElement("script");
        // The key is the page's path: each segment is escaped, as the
        // build escapes the addresses it writes.
        s.src = root + "assets/programs/" + key.split("/").map(encodeURIComponent).join("/") + ".js";
        s.onload = function () { resolve(); };
        s.onerror = function () { delete loading[key]; reject(new Error("could not load the programs of " + key)); };
        document.head.appendChild(s);
      });
    }
    return loading[key];
  }

  // cellOf finds a snippet by its id ("sweep", or "cell-sweep" as on the page).
  function cellOf(id) {
    var el = document.getElementById(id) || document.getElementById("cell-" + id);
    if (!el || !el.hasAttribute("data-program")) return null;
    return el;
  }
  function idOf(cell) {
    // On the print page ids carry the page's prefix: "p-occupancy--cell-sweep".
    return cell.id.replace(/^.*cell-/, "");
  }

  wb.program = function (id) {
    var cell = cellOf(id);
    if (!cell) return Promise.reject(new Error("no runnable snippet " + id));
    var key = cell.getAttribute("data-program");
    return loadPrograms(key).then(function () {
      var src = ((window.warpbookPrograms || {})[key] || {})[idOf(cell)];
      if (src === undefined) throw new Error("no program for " + id);
      return src;
    });
  };

  function addProgramButtons() {
    var cells = document.querySelectorAll(".cell[data-program]");
    for (var i = 0; i < cells.length; i++) {
      (function (cell) {
        var pre = cell.querySelector("pre.code");
        if (!pre) return;
        var tools = document.createElement("div");
        tools.className = "code-tools";
        var b = document.createElement("button");
        b.type = "button";
        b.className = "copy copy-program";
        b.textContent = "Copy as program";
        b.title = "Copy a Go program that runs this snippet, with the snippets above it, on its own";
        var key = cell.getAttribute("data-program");
        // Load before the click where the reader shows intent, so that
        // the copy happens in the click itself.
        function warm() { loadPrograms(key).catch(function () {}); }
        b.addEventListener("pointerenter", warm);
        b.addEventListener("focus", warm);
        b.addEventListener("touchstart", warm, { passive: true });
        b.addEventListener("click", function () {
          wb.program(cell.id).then(wb.copyText).then(function () {
            b.textContent = "Copied";
            b.classList.add("done");
            setTimeout(function () { b.textContent = "Copy as program"; b.classList.remove("done"); }, 1500);
          }, function () { b.textContent = "Copy failed"; });
        });
        var copy = pre.querySelector("button.copy");
        tools.appendChild(b);
        if (copy) tools.appendChild(copy);
        pre.appendChild(tools);
      })(cells[i]);
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", addProgramButtons);
  } else {
    addProgramButtons();
  }
})();
