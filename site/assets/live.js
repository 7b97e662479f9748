// warpbook live: the reader runs and edits a chapter's snippets in the
// browser, offline, in the kernel that checked them (the snippets kernel
// compiled to WebAssembly; see package site/live). This file is what a
// chapter loads: the tools on each snippet (Run, Stop, Edit, Reset) and
// the figures' forms. The rest, assets/live-core.js, loads when the
// reader's pointer or focus first reaches those tools, which also starts
// the download of the kernel (assets/kernel.js: the module, gzipped, in
// base64, since file:// refuses to fetch a .wasm) and its compile in a
// Web Worker, while the reader reads. Every page works without this file.
//
// The scripting contract, on every chapter page with snippets:
//   window.warpbook.run(cellId, source?) -> Promise<{stdout, error, ...}>
// cellId is the snippet's id=; source, when given, replaces the cell's code
// (as an edit would). error is what "warpbook test" would print for the
// run ("" when there is nothing); the rest is the kernel's result (status,
// diff, panic, values, marks). See docs/live-book.md for the rest.
(function () {
  "use strict";
  var doc = document.documentElement;
  var root = doc.getAttribute("data-root") || "";
  var kernelURL = doc.getAttribute("data-live-kernel");
  if (!doc.getAttribute("data-live-source")) return;

  var api = window.warpbook = window.warpbook || {};
  // The page's own time limit for a cell, in ms: a reader waits a few
  // seconds for a cell, not the book's limit (four times a cell's CPU
  // time limit, 40 s by default, since the browser counts wall-clock
  // time). It applies to runs that carry a reader's edit: the book's own
  // cells were checked within the book's limits. Allow longer lifts it
  // for the page; 0 leaves only the book's.
  api.timeLimit = 10000;
  // timings holds, for each run, when it started and when its result was
  // shown (performance.now(), in ms): what the benchmarks measure.
  api.timings = [];
  // kernelTimes says when the kernel's script loaded, its module compiled
  // and its last worker was ready.
  api.kernelTimes = {};

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function button(text, cls, label, onClick) {
    var b = el("button", cls, text);
    b.type = "button";
    b.setAttribute("aria-label", label);
    b.addEventListener("click", onClick);
    return b;
  }

  // The core, loaded once; live is it once it has loaded.
  var core = null, live = null;
  function loadCore() {
    if (!core) {
      core = api.loadScript(root + "assets/live-core.js").then(function () {
        live = window.warpbookLiveCore(api, { el: el, button: button });
        return live;
      });
      core.catch(function () { core = null; });
    }
    return core;
  }
  // warm loads the core and, through it, the page's source and the kernel.
  function warm() { loadCore().then(function (c) { c.prefetch(); }, function () {}); }
  function call(name, args) {
    return loadCore().then(function (c) { return c[name].apply(null, args); });
  }
  // A run's time counts from the reader's click (or the call), before
  // the core loads: see api.timings.
  api.run = function () { api.runStart = performance.now(); return call("run", arguments); };
  api.edit = function () { return call("edit", arguments); };
  // reset undoes an edit at once when the core is there.
  api.reset = function (id) { return live ? live.reset(id) : call("reset", [id]); };
  // running says which cell or checked value the kernel runs: null when
  // it runs nothing, "" while it prepares a run.
  api.running = function () { return live ? live.running() : null; };
  // code is a cell's code as the reader has it: the editor's, hidden
  // lines included, or the book's.
  api.code = function (id) {
    var c = live ? live.code(id) : null;
    if (c !== null) return c;
    var cells = document.querySelectorAll(".cell[data-cell]");
    for (var i = 0; i < cells.length; i++) {
      if (cells[i].getAttribute("data-cell") !== id) continue;
      var code = cells[i].querySelector("pre.code code");
      return code ? code.textContent.replace(/\n$/, "") : "";
    }
    return null;
  };

  function setup() {
    if (!kernelURL) return;
    var forms = document.querySelectorAll("form.fig-controls[data-figure]");
    for (var f = 0; f < forms.length; f++) {
      (function (form) {
        form.hidden = false;
        function take() { loadCore().then(function (c) { c.figure(form); c.prefetch(); }, function () {}); }
        form.addEventListener("pointerover", take);
        form.addEventListener("focusin", take);
        // Until the core has taken the form over (see figure in
        // live-core.js), its events go to the core once it loads.
        form.addEventListener("change", function () {
          if (!form.warpbookLive) loadCore().then(function (c) { c.figure(form).clamp(); });
        });
        form.addEventListener("submit", function (e) {
          e.preventDefault();
          if (!form.warpbookLive) loadCore().then(function (c) { c.figure(form).submit(); });
        });
      })(forms[f]);
    }
    var cells = document.querySelectorAll(".cell[data-cell]");
    // Said once, near the top: the snippets run, here, and can be edited.
    var first = document.querySelector(".cell[data-cell]:not([data-expect=skip])");
    var h1 = document.querySelector("main h1, article h1, h1");
    if (first && h1) {
      var note = el("p", "live-note");
      note.textContent = "The snippets on this page run in your browser, offline: ▶ Run runs one, Edit changes its code (Ctrl/⌘+Enter runs your edit), and the numbers in the text follow your edits.";
      h1.after(note);
    }
    for (var i = 0; i < cells.length; i++) {
      (function (cell) {
        if (cell.getAttribute("data-expect") === "skip") return;
        var id = cell.getAttribute("data-cell");
        var bar = el("div", "cell-tools");
        bar.setAttribute("role", "group");
        bar.setAttribute("aria-label", "Snippet " + id);
        bar.addEventListener("pointerover", warm);
        bar.addEventListener("focusin", warm);
        bar.appendChild(button("▶ Run", "cell-run-button", "Run snippet " + id, function () { api.run(id).catch(function () {}); }));
        var stop = button("■ Stop", "cell-stop", "Stop snippet " + id, function () { if (live) live.stop(id); });
        stop.hidden = true;
        bar.appendChild(stop);
        bar.appendChild(button("Edit", "cell-edit", "Edit snippet " + id, function () { call("edit", [id]).catch(function () {}); }));
        var r = button("Reset", "cell-reset", "Reset snippet " + id + " to the book's code", function () { call("reset", [id]); });
        r.hidden = true;
        bar.appendChild(r);
        var st = el("span", "cell-status");
        st.setAttribute("role", "status");
        bar.appendChild(st);
        var pre = cell.querySelector("pre.code");
        pre.after(bar);
        var box = el("div", "cell-run");
        box.hidden = true;
        box.setAttribute("aria-live", "polite");
        var verified = cell.querySelector(".output-wrap, .callout-fails, .cell-skip");
        (verified || bar).after(box);
      })(cells[i]);
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup); else setup();
})();
