// warpbook: progressive enhancements. Every page works without this file;
// it adds the theme button, keyboard shortcuts, copy buttons, the "On
// this page" highlight, the figure step control and the question filter
// (search is assets/search.js, loaded when the reader first reaches for
// the search box). It makes no network request.
(function () {
  "use strict";
  var doc = document.documentElement;
  var root = doc.getAttribute("data-root") || "";

  // Theme: the choice is stored; without one the system decides.
  function currentTheme() {
    var t = doc.getAttribute("data-theme");
    if (t) return t;
    return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }
  function setTheme(t) {
    doc.setAttribute("data-theme", t);
    try { localStorage.setItem("warpbook-theme", t); } catch (e) { /* storage may be off */ }
    labelThemeButton(t);
  }
  function labelThemeButton(t) {
    var b = document.getElementById("wb-theme");
    if (b) {
      var other = t === "dark" ? "light" : "dark";
      b.setAttribute("aria-label", "Switch to " + other + " theme");
      b.title = "Switch to " + other + " theme (t)";
      b.setAttribute("data-theme-now", t);
    }
  }
  function toggleTheme() { setTheme(currentTheme() === "dark" ? "light" : "dark"); }

  // Copy buttons on code blocks (hidden setup lines included: the copy runs).
  function addCopyButtons() {
    var pres = document.querySelectorAll("pre.code");
    for (var i = 0; i < pres.length; i++) {
      (function (pre) {
        var b = document.createElement("button");
        b.type = "button";
        b.className = "copy";
        b.textContent = "Copy";
        b.setAttribute("aria-label", "Copy the code");
        b.addEventListener("click", function () {
          var code = pre.querySelector("code");
          var text = (code || pre).textContent.replace(/\n$/, "");
          copyText(text).then(function () {
            b.textContent = "Copied";
            b.classList.add("done");
            setTimeout(function () { b.textContent = "Copy"; b.classList.remove("done"); }, 1500);
          }, function () { b.textContent = "Select and copy"; });
        });
        pre.appendChild(b);
      })(pres[i]);
    }
  }
  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text);
    }
    return new Promise(function (resolve, reject) {
      var ta = document.createElement("textarea");
      ta.value = text;
      ta.setAttribute("readonly", "");
      ta.style.position = "fixed";
      ta.style.opacity = "0";
      document.body.appendChild(ta);
      ta.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      document.body.removeChild(ta);
      if (ok) { resolve(); } else { reject(new Error("copy failed")); }
    });
  }

  // "On this page": mark the section being read.
  function setupTOC() {
    var links = document.querySelectorAll(".wb-toc a[href^='#']");
    if (links.length === 0 || !("IntersectionObserver" in window)) return;
    var byID = {};
    var heads = [];
    for (var i = 0; i < links.length; i++) {
      var id = decodeURIComponent(links[i].getAttribute("href").slice(1));
      var h = document.getElementById(id);
      if (h) { byID[id] = links[i]; heads.push(h); }
    }
    var visible = {};
    var obs = new IntersectionObserver(function (entries) {
      entries.forEach(function (en) { visible[en.target.id] = en.isIntersecting; });
      var active = null;
      for (var i = 0; i < heads.length; i++) {
        if (visible[heads[i].id]) { active = heads[i].id; break; }
      }
      if (!active) return;
      for (var id in byID) byID[id].classList.toggle("active", id === active);
    }, { rootMargin: "0px 0px -60% 0px" });
    heads.forEach(function (h) { obs.observe(h); });
  }

  // Keyboard shortcuts: ← → pages, / search, t theme, ? help.
  function typing(el) {
    if (!el) return false;
    var tag = el.tagName;
    return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || el.isContentEditable;
  }
  function follow(rel) {
    var l = document.querySelector("link[rel=" + rel + "]");
    if (l) window.location.href = l.href;
  }
  function showHelp() {
    var d = document.getElementById("wb-help");
    if (d && typeof d.showModal === "function" && !d.open) d.showModal();
  }
  // Search: assets/search.js loads when the reader first reaches for the
  // box, or a script calls window.warpbook.search, so that no page pays
  // for it before. It then replaces this window.warpbook.search.
  function loadSearch() { return loadScript(root + "assets/search.js"); }
  // loadScript loads a script once, by <script> (file:// fetches nothing
  // else), and resolves once it ran; one that fails to load may be tried
  // again. The live book's kernel and the practice page's cards and
  // module load with it too.
  var scripts = {};
  function loadScript(url) {
    if (!scripts[url]) {
      scripts[url] = new Promise(function (resolve, reject) {
        var s = document.createElement("script");
        s.src = url;
        s.onload = function () { resolve(); };
        s.onerror = function () { delete scripts[url]; reject(new Error("could not load " + url)); };
        document.head.appendChild(s);
      });
    }
    return scripts[url];
  }
  // fromBase64 decodes base64 into bytes (the modules' scripts carry
  // them so).
  function fromBase64(b64) {
    if (Uint8Array.fromBase64) return Uint8Array.fromBase64(b64);
    var bin = atob(b64), out = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }
  var api = window.warpbook = window.warpbook || {};
  // copyText puts text on the clipboard (reader.js copies programs with it).
  api.copyText = copyText;
  api.loadScript = loadScript;
  api.fromBase64 = fromBase64;
  function searchFirst(q) {
    return loadSearch().then(function () {
      if (window.warpbook.search === searchFirst) throw new Error("assets/search.js did not start");
      return window.warpbook.search(q);
    });
  }
  api.search = searchFirst;
  function setupSearch() {
    var input = document.getElementById("wb-q");
    if (!input) return;
    function reach() {
      input.removeEventListener("focus", reach);
      input.removeEventListener("input", reach);
      // search.js binds the box when it runs; what the reader did before
      // is handed on to it.
      loadSearch().then(function () {
        if (document.activeElement === input) input.dispatchEvent(new Event("focus"));
        if (input.value) input.dispatchEvent(new Event("input"));
      }, function () { /* the box stays a plain input */ });
    }
    input.addEventListener("focus", reach);
    input.addEventListener("input", reach);
  }
  function setupKeys() {
    document.addEventListener("keydown", function (ev) {
      if (ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey || typing(ev.target)) return;
      var d = document.getElementById("wb-help");
      if (d && d.open) return;
      // An arrow on a focused block (an output, a snippet, a figure, a
      // table) scrolls it; it never leaves the page.
      var t = ev.target;
      if ((ev.key === "ArrowLeft" || ev.key === "ArrowRight") && t !== document.body && t.closest && t.closest("pre, .cell, figure, table, form, [tabindex]")) return;
      switch (ev.key) {
        case "ArrowLeft": follow("prev"); break;
        case "ArrowRight": follow("next"); break;
        case "/": case "s":
          var q = document.getElementById("wb-q");
          if (q) { ev.preventDefault(); q.focus(); }
          break;
        case "t": toggleTheme(); break;
        case "?": ev.preventDefault(); showHelp(); break;
        default: return;
      }
    });
  }

  // Occupancy steppers: light the warp slots one by one, in issue order.
  function setupSteppers() {
    var svgs = document.querySelectorAll("svg[data-stepper]");
    for (var i = 0; i < svgs.length; i++) {
      (function (svg) {
        var n = +svg.getAttribute("data-stepper");
        var slots = svg.querySelectorAll(".fig-slot");
        var step = n;
        var box = document.createElement("div");
        box.className = "stepper-controls";
        var back = document.createElement("button");
        back.type = "button";
        back.textContent = "◀ Back";
        var fwd = document.createElement("button");
        fwd.type = "button";
        fwd.textContent = "Step ▶";
        var all = document.createElement("button");
        all.type = "button";
        all.textContent = "Start over";
        var out = document.createElement("output");
        out.setAttribute("aria-live", "polite");
        function show() {
          svg.classList.add("stepping");
          for (var k = 0; k < slots.length; k++) {
            slots[k].classList.toggle("unlit", +slots[k].getAttribute("data-order") > step);
          }
          out.textContent = step + " of " + n + " warps have issued";
          back.disabled = step === 0;
          fwd.disabled = step === n;
        }
        back.addEventListener("click", function () { if (step > 0) { step--; show(); } });
        fwd.addEventListener("click", function () { if (step < n) { step++; show(); } });
        all.addEventListener("click", function () { step = 0; show(); });
        box.appendChild(back); box.appendChild(fwd); box.appendChild(all); box.appendChild(out);
        svg.parentNode.insertBefore(box, svg.nextSibling);
        show();
      })(svgs[i]);
    }
  }

  // Questions index: the tag links lead to the static tag pages; here they
  // filter the list in place instead, and the address (#tag=NAME) keeps
  // the choice for the back button, a reload or a shared link.
  function setupTagFilter() {
    var nav = document.querySelector("nav.tags[data-filter]");
    if (!nav) return;
    var items = document.querySelectorAll("article.qa[data-tags]");
    var status = document.createElement("p");
    status.className = "filter-status";
    status.setAttribute("role", "status");
    nav.parentNode.insertBefore(status, nav.nextSibling);
    function tagOf(hash) {
      var m = /^#tag=([a-z0-9-]*)$/.exec(hash || "");
      return m ? m[1] : "";
    }
    function apply(tag) {
      var shown = 0;
      for (var i = 0; i < items.length; i++) {
        var on = !tag || (" " + items[i].getAttribute("data-tags") + " ").indexOf(" " + tag + " ") >= 0;
        items[i].hidden = !on;
        if (on) shown++;
      }
      var links = nav.querySelectorAll("a[data-tag]");
      for (var k = 0; k < links.length; k++) {
        if (links[k].getAttribute("data-tag") === tag) links[k].setAttribute("aria-current", "true");
        else links[k].removeAttribute("aria-current");
      }
      status.textContent = tag ? shown + (shown === 1 ? " question" : " questions") + " tagged " + tag + "." : "";
    }
    document.addEventListener("click", function (ev) {
      var a = ev.target.closest && ev.target.closest("a.tag[data-tag]");
      if (!a || ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey) return;
      ev.preventDefault();
      var tag = a.getAttribute("data-tag");
      apply(tag);
      if (location.hash !== "#tag=" + tag) location.hash = "tag=" + tag;
    });
    window.addEventListener("hashchange", function () { apply(tagOf(location.hash)); });
    if (tagOf(location.hash)) apply(tagOf(location.hash));
  }

  function init() {
    var tb = document.getElementById("wb-theme");
    if (tb) {
      labelThemeButton(currentTheme());
      tb.addEventListener("click", toggleTheme);
      if (window.matchMedia) {
        var mq = window.matchMedia("(prefers-color-scheme: dark)");
        if (mq.addEventListener) mq.addEventListener("change", function () { labelThemeButton(currentTheme()); });
      }
    }
    var hb = document.getElementById("wb-help-button");
    if (hb) hb.addEventListener("click", showHelp);
    addCopyButtons();
    setupTOC();
    setupSteppers();
    setupTagFilter();
    setupSearch();
    setupKeys();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
