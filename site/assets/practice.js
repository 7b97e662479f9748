// warpbook: the practice page. The page holds an index of the cards
// (interview questions and predict cards, made by the build) and of the
// families of generated problems; the cards' HTML comes in one script per
// chapter, loaded when a card of it is shown. This script turns them into a
// drill: one card at a time, answer first, then the answer and a grade
// (again, hard, good, easy) that FSRS (assets/fsrs.js, ts-fsrs) turns into
// the card's next review. A family is one card: each review draws a new
// problem from the practice module (package problems compiled to
// WebAssembly, loaded on the first problem), which answers and grades it;
// the grade is the review's rating. The schedule lives in localStorage,
// exports and imports as a JSON file, and never leaves the browser: the
// script makes no network request beyond the site's own files.
//
// window.warpbook.practice is the scripting contract the browser tests use.
(function () {
  "use strict";
  var wb = window.warpbook = window.warpbook || {};
  var box = document.getElementById("pr-cards");
  var indexEl = document.getElementById("pr-index");
  if (!box || !indexEl || !window.FSRS || !wb.loadScript) return;
  var idx = JSON.parse(indexEl.textContent);
  var F = window.FSRS;
  var scheduler = F.fsrs(F.generatorParameters({ enable_fuzz: false }));
  var book = idx.book || "";
  var storeKey = "warpbook-practice/" + book;
  var FORMAT = "warpbook-practice";
  var $ = function (id) { return document.getElementById(id); };

  // The cards: those of the index, then one per family of problems.
  var cards = idx.cards.map(function (c, i) {
    return {
      id: c.id, kind: c.kind, chapter: c.chapter || "", tags: c.tags || [], difficulty: c.difficulty || "",
      number: c.number, tolerance: c.tolerance, choices: c.choices || [], chunk: c.chunk, simulated: !!c.simulated, index: i
    };
  });
  var families = {};
  idx.families.forEach(function (f) {
    families[f.name] = f;
    cards.push({
      id: f.id, kind: "problem", chapter: f.chapter || "", tags: f.tags || [], difficulty: "",
      number: null, tolerance: null, choices: [], family: f, index: cards.length
    });
  });
  var byID = Object.create(null);
  cards.forEach(function (c) { byID[c.id] = c; });

  // Loading: each script once, by <script> (assets/warpbook.js).
  var loadScript = wb.loadScript;
  var html = {}; // card id -> its HTML, once its chunk is in
  window.warpbookPracticeCards = function (n, list) {
    list.forEach(function (c) { html[c.id] = c.html; });
  };
  function loadCard(c) {
    if (html[c.id] !== undefined) return Promise.resolve();
    return loadScript(idx.chunks[c.chunk]);
  }

  // The practice module: Go, compiled to WebAssembly, on this page's
  // thread (a request takes milliseconds).
  var engine = null; // Promise of the module's function
  function loadEngine() {
    if (!idx.module) return Promise.reject(new Error(idx.off || "this site has no practice module"));
    if (!engine) {
      engine = loadScript(idx.module).then(function () {
        var data = window.warpbookKernelData;
        if (!window.Go) (new Function(data.exec))();
        var gz = new Blob([wb.fromBase64(data.wasm)]);
        return new Response(gz.stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
      }).then(function (buf) {
        var go = new window.Go();
        return WebAssembly.instantiate(buf, go.importObject).then(function (r) {
          return new Promise(function (resolve) {
            window.warpbookPracticeReady = function () { resolve(window.warpbookPractice); };
            go.run(r.instance);
          });
        });
      });
      engine.catch(function () { engine = null; });
    }
    return engine;
  }
  function ask(req) {
    return loadEngine().then(function (fn) {
      var r = JSON.parse(fn(JSON.stringify(req)));
      if (r.error) throw new Error(r.error);
      return r;
    });
  }
  function randomSeed() {
    var a = new Uint16Array(1);
    crypto.getRandomValues(a);
    return a[0];
  }

  // The schedule: FSRS's card per id, as JSON (dates as ISO strings).
  function empty() { return { format: FORMAT, version: 1, reviews: 0, cards: Object.create(null) }; }
  function load() {
    try {
      var text = localStorage.getItem(storeKey);
      if (text) return schedule(JSON.parse(text), true);
    } catch (e) { /* storage off or damaged: start afresh */ }
    return empty();
  }
  // schedule checks a schedule and returns a copy made of what it checked,
  // or throws an Error that says what is wrong: a known card id for each
  // entry, each field of FSRS's card in its range, nothing else. Every
  // object is made afresh, with no prototype where it is a map by id, so
  // that no key ("__proto__", "constructor") reaches an object's
  // prototype; an import is applied whole or not at all. The schedule this
  // browser kept (saved) may hold cards the book no longer has, which are
  // kept for when it has them again, and drops a card it cannot read
  // rather than the reader's whole progress.
  var STATES = 4; // New, Learning, Review, Relearning
  var S_MAX = 36500, D_MAX = 10, DAYS_MAX = 36500 * 10;
  function isDate(v) { return typeof v === "string" && v.length <= 64 && isFinite(Date.parse(v)); }
  function isCount(v, most) { return Number.isSafeInteger(v) && v >= 0 && v <= most; }
  function isIn(v, lo, hi) { return typeof v === "number" && isFinite(v) && v >= lo && v <= hi; }
  function own(o, k) { return Object.prototype.hasOwnProperty.call(o, k); }
  var FIELDS = {
    due: isDate,
    last_review: function (v) { return v === undefined || isDate(v); },
    state: function (v) { return isCount(v, STATES - 1); },
    stability: function (v) { return isIn(v, 0, S_MAX); },
    difficulty: function (v) { return isIn(v, 0, D_MAX); },
    elapsed_days: function (v) { return isCount(v, DAYS_MAX); },
    scheduled_days: function (v) { return isCount(v, DAYS_MAX); },
    learning_steps: function (v) { return isCount(v, 1000); },
    reps: function (v) { return isCount(v, 1e9); },
    lapses: function (v) { return isCount(v, 1e9); }
  };
  var REQUIRED = ["due", "state", "stability", "difficulty", "reps"];
  function scheduleCard(id, c) {
    if (!c || typeof c !== "object" || Array.isArray(c)) throw new Error("card " + id + " is not a schedule");
    var out = {};
    Object.keys(c).forEach(function (k) {
      if (!own(FIELDS, k)) throw new Error("card " + id + " has a field " + JSON.stringify(k) + " that a schedule does not");
      if (!FIELDS[k](c[k])) throw new Error("card " + id + ": " + k + " " + JSON.stringify(c[k]) + " is out of its range");
      if (c[k] !== undefined) out[k] = c[k];
    });
    REQUIRED.forEach(function (k) {
      if (!own(out, k)) throw new Error("card " + id + " has no " + k);
    });
    // A card that was reviewed is in FSRS's ranges: a stability of at
    // least 0.001 days and a difficulty from 1 to 10.
    if (out.state !== 0 && (out.stability < 1e-3 || out.difficulty < 1)) {
      throw new Error("card " + id + ": a stability of " + out.stability + " and a difficulty of " + out.difficulty + " are no reviewed card's");
    }
    return out;
  }
  function schedule(s, saved) {
    if (!s || typeof s !== "object" || Array.isArray(s) || s.format !== FORMAT) throw new Error("not a warpbook practice file (no \"format\": \"" + FORMAT + "\")");
    if (s.version !== 1) throw new Error("version " + JSON.stringify(s.version) + " is not one this page reads (1)");
    if (!s.cards || typeof s.cards !== "object" || Array.isArray(s.cards)) throw new Error("no cards");
    if (s.reviews !== undefined && !isCount(s.reviews, 1e12)) throw new Error("reviews " + JSON.stringify(s.reviews) + " is not a count");
    var cardsIn = Object.create(null);
    Object.keys(s.cards).forEach(function (id) {
      if (saved) {
        try { cardsIn[id] = scheduleCard(id, s.cards[id]); } catch (e) { /* dropped */ }
        return;
      }
      if (!own(byID, id)) throw new Error("card " + JSON.stringify(id) + " is not a card of this page");
      cardsIn[id] = scheduleCard(id, s.cards[id]);
    });
    return { format: FORMAT, version: 1, reviews: s.reviews || 0, cards: cardsIn };
  }
  var state = load();
  function save() {
    try { localStorage.setItem(storeKey, JSON.stringify(state)); } catch (e) { say("pr-io-status", "This browser does not keep the schedule (storage is off)."); }
  }
  function fsrsCard(id) {
    var s = state.cards[id];
    if (!s) return F.createEmptyCard(now());
    var c = {};
    for (var k in s) c[k] = s[k];
    c.due = new Date(s.due);
    if (s.last_review) c.last_review = new Date(s.last_review);
    return c;
  }
  function stored(card) {
    var s = {};
    for (var k in card) {
      var v = card[k];
      s[k] = v instanceof Date ? v.toISOString() : v;
    }
    return s;
  }
  function now() { return new Date(); }
  function endOfToday() { var d = now(); d.setHours(23, 59, 59, 999); return d; }
  function isDue(c) { var s = state.cards[c.id]; return !s || new Date(s.due) <= endOfToday(); }
  // record applies a review of card id with rating g and returns FSRS's
  // next card.
  function record(id, g) {
    var rec = scheduler.next(fsrsCard(id), now(), g);
    state.cards[id] = stored(rec.card);
    state.reviews++;
    save();
    return rec.card;
  }

  // Filters and the queue.
  var queue = [], pos = 0, revealed = false, picked = -1;
  var filters = { kind: $("pr-kind"), chapter: $("pr-chapter"), tag: $("pr-tag"), difficulty: $("pr-difficulty") };
  function wanted(c) {
    var f = filters;
    if (f.kind.value && c.kind !== f.kind.value) return false;
    if (f.chapter.value && c.chapter !== f.chapter.value) return false;
    if (f.tag.value && c.tags.indexOf(f.tag.value) < 0) return false;
    if (f.difficulty.value && c.difficulty !== f.difficulty.value) return false;
    return true;
  }
  function rebuild() {
    var list = cards.filter(wanted);
    if ($("pr-due").checked) {
      list = list.filter(isDue);
      // Reviews that are due first, the earliest first; then new cards.
      list.sort(function (a, b) {
        var sa = state.cards[a.id], sb = state.cards[b.id];
        if (!!sa !== !!sb) return sa ? -1 : 1;
        if (sa && sb && sa.due !== sb.due) return new Date(sa.due) - new Date(sb.due);
        return a.index - b.index;
      });
    }
    queue = list.map(function (c) { return c.id; });
    pos = 0;
    if (wantCode) {
      // The family of the problem the address names.
      var code = wantCode.split("-")[0];
      for (var i = 0; i < queue.length; i++) if (byID[queue[i]].family && byID[queue[i]].family.code === code) pos = i;
    }
    writeHash();
    return show();
  }
  function shuffle() {
    for (var i = queue.length - 1; i > 0; i--) {
      var j = Math.floor(Math.random() * (i + 1));
      var t = queue[i]; queue[i] = queue[j]; queue[j] = t;
    }
    pos = 0;
    return show();
  }
  var wantCode = ""; // a problem's code the address asks for
  function readHash() {
    var h = location.hash.replace(/^#/, "");
    var m = /^problem=([a-z]+)-[0-9a-f]+$/i.exec(h);
    if (m) {
      var fam = null;
      for (var n in families) if (families[n].code === m[1].toLowerCase()) fam = families[n];
      if (!fam) return false;
      wantCode = h.slice("problem=".length).toLowerCase();
      filters.kind.value = "problem";
      return true;
    }
    if (!/^(chapter|kind|tag|difficulty)=/.test(h)) return false;
    h.split("&").forEach(function (kv) {
      var p = kv.split("="), sel = filters[p[0]];
      if (!sel) return;
      var v = decodeURIComponent(p[1] || "");
      if (Array.prototype.some.call(sel.options, function (o) { return o.value === v; })) sel.value = v;
    });
    return true;
  }
  function writeHash() {
    var parts = [];
    ["chapter", "kind", "tag", "difficulty"].forEach(function (k) {
      if (filters[k].value) parts.push(k + "=" + encodeURIComponent(filters[k].value));
    });
    var h = parts.length ? "#" + parts.join("&") : "";
    if (wantCode) h = "#problem=" + wantCode;
    if (location.hash !== h && (h || location.hash)) history.replaceState(null, "", h || location.pathname + location.search);
  }

  // One card at a time.
  var problem = null; // the generated problem shown: {card, p, graded}
  var shown = Promise.resolve();
  var showing = 0;
  function current() { return queue.length ? byID[queue[pos]] : null; }
  function show() {
    var c = current(), my = ++showing;
    revealed = false;
    picked = -1;
    problem = null;
    box.textContent = "";
    $("pr-answer").value = "";
    $("pr-answer").readOnly = false;
    $("pr-verdict").textContent = "";
    $("pr-verdict").className = "pr-verdict";
    $("pr-grades").hidden = true;
    $("pr-choices").textContent = "";
    $("pr-choices").hidden = true;
    $("pr-answer-form").hidden = !c || c.kind === "problem";
    $("pr-reveal").disabled = !c;
    $("pr-another").hidden = !c || c.kind !== "problem";
    status();
    if (!c) { shown = Promise.resolve(); return shown; }
    shown = (c.kind === "problem" ? showProblem(c, my) : showCard(c, my)).catch(function (err) {
      if (my !== showing) return;
      box.textContent = "";
      var p = el("p", "pr-error", "Could not show this card: " + err.message);
      p.setAttribute("role", "alert");
      box.appendChild(p);
    });
    return shown;
  }
  function showCard(c, my) {
    return loadCard(c).then(function () {
      if (my !== showing) return;
      var t = document.createElement("template");
      t.innerHTML = html[c.id] || "";
      var a = t.content.firstElementChild;
      if (!a) throw new Error("card " + c.id + " is missing from its chunk");
      a.classList.add("pr-asking", "pr-current");
      box.appendChild(a);
      var ch = $("pr-choices");
      c.choices.forEach(function (text, i) {
        var b = el("button", "pr-choice", text);
        b.type = "button";
        b.setAttribute("aria-pressed", "false");
        b.addEventListener("click", function () { pick(i); });
        ch.appendChild(b);
      });
      ch.hidden = c.choices.length === 0;
    });
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function status() {
    var due = 0, fresh = 0;
    cards.forEach(function (c) { if (!state.cards[c.id]) fresh++; else if (isDue(c)) due++; });
    var c = current();
    var s = c ? "Card " + (pos + 1) + " of " + queue.length + "." : "No card matches: change the choice above.";
    s += " Today: " + due + (due === 1 ? " review" : " reviews") + " due, " + fresh + " new of " + cards.length + " cards.";
    $("pr-status").textContent = s;
    var seen = Object.keys(state.cards).length;
    $("pr-progress-text").textContent = seen + " of " + cards.length + " cards studied, " + state.reviews + (state.reviews === 1 ? " review" : " reviews") + " in all. The schedule is kept in this browser; export it to keep it elsewhere.";
  }
  function pick(i) {
    var c = current();
    if (!c || c.kind === "problem" || revealed || i < 0 || i >= c.choices.length) return;
    picked = i;
    $("pr-answer").value = c.choices[i];
    Array.prototype.forEach.call($("pr-choices").children, function (b, k) { b.setAttribute("aria-pressed", k === i ? "true" : "false"); });
    $("pr-reveal").focus();
  }
  // numberIn reads the first number of an answer: "1,536", "62.5 %", "−3".
  function numberIn(s) {
    var m = /[-−]?\d[\d,]*(\.\d+)?/.exec(s || "");
    return m ? parseFloat(m[0].replace(/,/g, "").replace("−", "-")) : null;
  }
  function judge(c, answer) {
    if (c.number === null || c.number === undefined) return null;
    var x = numberIn(answer);
    return x !== null && Math.abs(x - c.number) <= c.tolerance + 1e-9;
  }
  function reveal() {
    var c = current();
    var a = box.querySelector("article.pcard");
    if (!c || c.kind === "problem" || revealed || !a) return null;
    revealed = true;
    a.classList.remove("pr-asking");
    a.querySelector("details.pcard-answer").open = true;
    $("pr-answer").readOnly = true;
    var answer = $("pr-answer").value.trim();
    var ok = judge(c, answer);
    var v = $("pr-verdict");
    if (ok === null) v.textContent = answer ? "Compare your answer with the book's, then say how well you knew it." : "No answer given: say how well you knew it.";
    else if (!answer) v.textContent = "No answer given. The book's answer is below.";
    else v.textContent = ok ? "Right: within ±" + c.tolerance + " of the book's answer." : "Not quite: " + answer + " is further than ±" + c.tolerance + " from the book's answer.";
    v.className = "pr-verdict" + (ok === true ? " right" : ok === false ? " wrong" : "");
    var preview = scheduler.repeat(fsrsCard(c.id), now());
    Array.prototype.forEach.call($("pr-grades").querySelectorAll("button[data-grade]"), function (b) {
      var g = +b.getAttribute("data-grade");
      b.querySelector(".pr-interval").textContent = "(" + interval(preview[g].card.due) + ")";
      b.classList.toggle("suggested", ok === false ? g === 1 : ok === true ? g === 3 : false);
    });
    $("pr-grades").hidden = false;
    // The group takes the focus, not a button, so that the key that
    // revealed the answer does not also press a grade.
    $("pr-grades").focus();
    return ok;
  }
  function interval(due) {
    var m = Math.max(1, Math.round((due - now()) / 60000));
    if (m < 60) return "in " + m + " min";
    var h = Math.round(m / 60);
    if (h < 24) return "in " + h + " h";
    var d = Math.round(h / 24);
    return d === 1 ? "tomorrow" : "in " + d + " days";
  }
  // grade rates the card shown (1 to 4) and moves on.
  function grade(g) {
    var c = current();
    if (!c || c.kind === "problem" || !revealed || g < 1 || g > 4) return;
    var next = record(c.id, g);
    moveOn(c, next);
    show();
    $("pr-answer").focus();
  }
  // moveOn takes the card just reviewed out of a due-today queue (back at
  // its end when it is due again today) or steps to the next card.
  function moveOn(c, next) {
    if ($("pr-due").checked) {
      var i = queue.indexOf(c.id);
      if (i >= 0) queue.splice(i, 1);
      if (next.due <= endOfToday()) queue.push(c.id);
      if (pos >= queue.length) pos = 0;
    } else {
      pos = queue.length ? (pos + 1) % queue.length : 0;
    }
  }
  function move(d) {
    if (!queue.length) return shown;
    pos = (pos + d + queue.length) % queue.length;
    wantCode = "";
    writeHash();
    return show();
  }

  // A family's card: a new problem each time, answered part by part and
  // graded by the engine; the grade is the review.
  var wantSeed = null; // the seed the next problem shown is drawn from
  function showProblem(c, my) {
    var req = { op: "generate", family: c.family.name, seed: wantSeed === null ? randomSeed() : wantSeed };
    wantSeed = null;
    if (wantCode && wantCode.indexOf(c.family.code + "-") === 0) req = { op: "resolve", code: wantCode };
    var wait = el("p", "pr-wait", "Loading the engine…");
    wait.setAttribute("role", "status");
    box.appendChild(wait);
    return ask(req).then(function (r) {
      if (my !== showing) return;
      box.textContent = "";
      problem = { card: c, p: r.problem, graded: null };
      box.appendChild(renderProblem(r.problem, "pr-d-", checkProblem));
    });
  }
  function sectionHref(p) {
    return idx.sections[p.section] || null;
  }
  // renderProblem returns the article of a generated problem; onCheck,
  // when given, is called with its answers when the form is sent.
  function renderProblem(p, prefix, onCheck) {
    var fam = families[p.family] || { title: p.family };
    var a = el("article", "pcard pr-gen pr-current");
    a.setAttribute("data-code", p.code);
    var meta = el("p", "pcard-meta");
    meta.appendChild(el("span", "pcard-kind", "Generated problem"));
    meta.appendChild(document.createTextNode(" "));
    meta.appendChild(el("span", "pr-code", p.code));
    if (p.simulated) {
      meta.appendChild(document.createTextNode(" "));
      var sim = el("span", "pcard-sim", "simulated");
      sim.title = "The figures come from the simulator: the model's, not a measurement";
      meta.appendChild(sim);
    }
    if (fam.href) {
      meta.appendChild(document.createTextNode(" "));
      var w = el("a", "pcard-where", fam.where || "The book");
      w.href = fam.href;
      meta.appendChild(w);
    }
    a.appendChild(meta);
    a.appendChild(el("h2", "pcard-q", fam.title));
    a.appendChild(el("p", "pr-question", p.question));
    if (p.data) {
      var pre = el("pre", "output pr-data");
      pre.tabIndex = 0;
      pre.appendChild(el("code", "", p.data));
      a.appendChild(pre);
    }
    if (p.given && p.given.length) {
      var ul = el("ul", "pr-given");
      p.given.forEach(function (g) { ul.appendChild(el("li", "", g)); });
      a.appendChild(ul);
    }
    if (p.simulated) a.appendChild(el("p", "pr-note", "These figures come from the simulator: they are the model's, not a measurement."));
    var form = el("form", "pr-parts");
    form.noValidate = true;
    p.parts.forEach(function (part, i) {
      var id = prefix + part.name;
      var stated = el("span", "pr-stated", "(" + part.stated + ")");
      stated.id = id + "-tol";
      if (part.kind === "choice") {
        var fs = el("fieldset", "pr-part");
        fs.setAttribute("data-part", part.name);
        fs.appendChild(el("legend", "", (i + 1) + ". " + part.prompt));
        var opts = el("div", "pr-options");
        part.choices.forEach(function (ch, k) {
          var l = el("label", "pr-option");
          var r = el("input");
          r.type = "radio";
          r.name = id;
          r.value = ch;
          r.id = id + "-" + k;
          l.appendChild(r);
          l.appendChild(document.createTextNode(" " + ch));
          opts.appendChild(l);
        });
        fs.appendChild(opts);
        form.appendChild(fs);
      } else {
        var d = el("p", "pr-part");
        d.setAttribute("data-part", part.name);
        var lab = el("label", "", (i + 1) + ". " + part.prompt);
        lab.htmlFor = id;
        var inp = el("input");
        inp.type = "text";
        inp.id = id;
        inp.name = part.name;
        inp.autocomplete = "off";
        inp.spellcheck = false;
        inp.setAttribute("inputmode", "decimal");
        inp.setAttribute("aria-describedby", stated.id);
        d.appendChild(lab);
        d.appendChild(document.createTextNode(" "));
        d.appendChild(inp);
        d.appendChild(document.createTextNode(" "));
        d.appendChild(stated);
        form.appendChild(d);
      }
    });
    if (onCheck) {
      var sub = el("p");
      var b = el("button", "pr-check", "Check");
      b.type = "submit";
      sub.appendChild(b);
      form.appendChild(sub);
    }
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      if (onCheck) onCheck(a, p, answersOf(a, p));
      else if (mock) mockNext();
    });
    a.appendChild(form);
    var out = el("div", "pr-graded");
    out.hidden = true;
    a.appendChild(out);
    return a;
  }
  // answersOf reads a problem's form: each part's text or choice.
  function answersOf(a, p) {
    var out = {};
    p.parts.forEach(function (part) {
      var box = a.querySelector('[data-part="' + part.name + '"]');
      if (!box) return;
      if (part.kind === "choice") {
        var r = box.querySelector("input:checked");
        out[part.name] = r ? r.value : "";
      } else {
        out[part.name] = box.querySelector("input").value;
      }
    });
    return out;
  }
  // fill puts answers into a problem's form.
  function fill(a, p, answers) {
    p.parts.forEach(function (part) {
      var box = a.querySelector('[data-part="' + part.name + '"]');
      var v = answers && answers[part.name] !== undefined ? String(answers[part.name]) : "";
      if (!box) return;
      if (part.kind === "choice") {
        Array.prototype.forEach.call(box.querySelectorAll("input"), function (r) { r.checked = r.value === v; });
      } else {
        box.querySelector("input").value = v;
      }
    });
  }
  var lastGrade = null;
  var checking = null; // the promise of the check under way
  function checkProblem(a, p, answers) {
    if (!problem || problem.p !== p || problem.graded || checking) return checking || Promise.resolve(problem && problem.graded);
    var c = problem.card;
    checking = ask({ op: "grade", code: p.code, answers: answers }).then(function (r) {
      checking = null;
      if (!problem || problem.p !== p) return r.grade;
      var g = r.grade;
      problem.graded = g;
      var next = record(c.id, g.rating);
      lastGrade = { id: c.id, code: p.code, rating: g.rating, right: g.right };
      showGrade(a, p, g, next);
      status();
      return g;
    }, function (err) {
      checking = null;
      say("pr-verdict", "Could not grade: " + err.message);
      throw err;
    });
    return checking;
  }
  var ratingWords = { 1: "Again", 2: "Hard", 3: "Good", 4: "Easy" };
  function showGrade(a, p, g, next) {
    Array.prototype.forEach.call(a.querySelectorAll("input"), function (i) { i.disabled = true; });
    var b = a.querySelector("button.pr-check");
    if (b) b.disabled = true;
    g.parts.forEach(function (pg, i) {
      var part = p.parts[i];
      var box = a.querySelector('[data-part="' + part.name + '"]');
      var v = el("p", "pr-part-verdict " + (pg.right ? "right" : "wrong"),
        (pg.right ? "✓ Right" : "✗ " + (pg.why ? cap(pg.why) : "Not it")) + ". The engine's answer: " + pg.expected + (part.unit === "%" ? " %" : "") + ".");
      box.after(v);
    });
    var right = g.parts.filter(function (x) { return x.right; }).length;
    var v = $("pr-verdict");
    v.textContent = (g.right ? "Right: " : right ? "Partly right: " : "Not quite: ") + right + " of " + g.parts.length + (g.parts.length === 1 ? " part" : " parts") +
      ". Recorded as " + ratingWords[g.rating] + "; this family comes back " + interval(next.due) + ".";
    v.className = "pr-verdict " + (g.right ? "right" : "wrong");
    var out = a.querySelector(".pr-graded");
    out.textContent = "";
    out.appendChild(el("h3", "", "Worked solution"));
    var ol = el("ol", "pr-solution");
    p.solution.forEach(function (s) { ol.appendChild(el("li", "", s)); });
    out.appendChild(ol);
    var links = el("p", "pcard-links");
    var href = sectionHref(p);
    if (href) {
      var l = el("a", "", "Explained in the book →");
      l.href = href;
      links.appendChild(l);
      links.appendChild(document.createTextNode(" "));
    }
    var share = el("a", "pr-share", "This problem again: " + p.code);
    share.href = "#problem=" + p.code;
    links.appendChild(share);
    out.appendChild(links);
    out.hidden = false;
    $("pr-another").focus();
  }
  function cap(s) { return s.charAt(0).toUpperCase() + s.slice(1); }
  function another(seed) {
    var c = current();
    if (!c || c.kind !== "problem") return Promise.resolve(null);
    wantCode = "";
    writeHash();
    var my = ++showing;
    problem = null;
    box.textContent = "";
    $("pr-verdict").textContent = "";
    wantSeed = seed === undefined ? null : seed;
    shown = showProblem(c, my);
    return shown;
  }

  // Progress: export, import, reset.
  function say(id, text) { var e = $(id); if (e) e.textContent = text; }
  function exportJSON() {
    var out = { format: FORMAT, version: 1, book: book, exported: now().toISOString(), reviews: state.reviews, cards: state.cards };
    return JSON.stringify(out, null, 1) + "\n";
  }
  function importJSON(text) {
    var s;
    try { s = JSON.parse(text); } catch (e) { throw new Error("not JSON: " + e.message); }
    var next = schedule(s); // throws, and then nothing changed
    state = next;
    save();
    rebuild();
    return Object.keys(next.cards).length;
  }
  function download() {
    var blob = new Blob([exportJSON()], { type: "application/json" });
    var a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = "warpbook-practice.json";
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 0);
    say("pr-io-status", "Exported the schedule of " + Object.keys(state.cards).length + " cards as warpbook-practice.json.");
  }
  function reset() {
    state = empty();
    save();
    rebuild();
    say("pr-io-status", "Progress reset: every card is new.");
  }

  // The mock interview: one scenario from the engine, question after
  // question each changing one thing, graded at the end with what was
  // missed and where to read. It leaves the schedule alone.
  var mock = null;
  var results = null;
  function mockStart(n, seed) {
    n = Math.max(3, Math.min(+n || 5, 6));
    seed = seed === undefined || seed === null ? randomSeed() : seed;
    results = null;
    return ask({ op: "interview", seed: seed }).then(function (r) {
      mock = { iv: r.interview, n: n, at: -1, answers: [] };
      $("pr-drill").hidden = true;
      box.hidden = true;
      $("pr-results").hidden = true;
      $("pr-mock").hidden = false;
      return mockNext();
    });
  }
  function mockRecord() {
    if (!mock || mock.at < 0 || mock.at >= mock.n) return;
    var a = $("pr-mock-card").querySelector("article");
    mock.answers[mock.at] = a ? answersOf(a, mock.iv.steps[mock.at].problem) : {};
  }
  function mockNext() {
    if (!mock) return Promise.resolve(null);
    mockRecord();
    mock.at++;
    if (mock.at >= mock.n) return mockEnd();
    var s = mock.iv.steps[mock.at];
    $("pr-mock-count").textContent = "Question " + (mock.at + 1) + " of " + mock.n;
    $("pr-mock-change").textContent = s.change ? "Follow-up: " + s.change : "The interviewer starts with:";
    var card = $("pr-mock-card");
    card.textContent = "";
    card.appendChild(renderProblem(s.problem, "pr-m" + mock.at + "-", null));
    $("pr-mock-next").textContent = mock.at + 1 === mock.n ? "Finish" : "Next question";
    $("pr-mock-count").focus();
    return Promise.resolve(s.problem);
  }
  function mockEnd() {
    var m = mock;
    mockRecord();
    var steps = m.answers.slice(0, m.n);
    return ask({ op: "summary", code: m.iv.code, steps: steps }).then(function (r) {
      mock = null;
      var list = $("pr-results-list");
      list.textContent = "";
      var sum = r.summary;
      $("pr-results-score").textContent = "You answered " + sum.right + " of " + sum.asked + " questions right (interview " + m.iv.code + ", " + m.iv.scenario + ")." +
        (sum.missed && sum.missed.length ? " What to read again is under each question you missed." : "");
      r.grades.forEach(function (g, i) {
        var s = m.iv.steps[i], p = s.problem;
        var li = el("li", g.right ? "pr-right" : "pr-missed");
        li.appendChild(el("h3", "", (s.change ? s.change + " " : "") + (g.right ? "✓" : "✗")));
        li.appendChild(el("p", "", p.question));
        g.parts.forEach(function (pg, k) {
          li.appendChild(el("p", "pr-mine", p.parts[k].prompt + ": " + (pg.given || "(no answer)") + (pg.right ? " ✓" : " ✗ the engine's answer: " + pg.expected)));
        });
        if (!g.right) {
          var links = el("p", "pcard-links");
          var href = sectionHref(p);
          if (href) {
            var l = el("a", "", "Read: " + ((families[p.family] || {}).where || "the book") + " →");
            l.href = href;
            links.appendChild(l);
          }
          li.appendChild(links);
        }
        list.appendChild(li);
      });
      results = { code: m.iv.code, scenario: m.iv.scenario, summary: sum, grades: r.grades };
      $("pr-mock").hidden = true;
      $("pr-results").hidden = false;
      $("pr-drill").hidden = false;
      box.hidden = false;
      $("pr-results-title").focus();
      return results;
    });
  }

  // Keys: Enter in an answer reveals or checks, 1-4 grade a revealed card,
  // ← → move. None of them is Space, which stays the browser's, and none
  // acts while the reader types in a field.
  function typing(el) {
    var t = el && el.tagName;
    return t === "INPUT" || t === "TEXTAREA" || t === "SELECT" || (el && el.isContentEditable);
  }
  window.addEventListener("keydown", function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || mock) return;
    var help = $("wb-help");
    if (help && help.open) return;
    var t = ev.target;
    if (t && t.id === "pr-answer" && ev.key === "Enter" && !ev.shiftKey) {
      ev.preventDefault();
      reveal();
      return;
    }
    if (typing(t)) return;
    switch (ev.key) {
      case "1": case "2": case "3": case "4":
        if (!revealed) return;
        ev.preventDefault();
        grade(+ev.key);
        break;
      case "ArrowRight": move(1); ev.preventDefault(); ev.stopPropagation(); break;
      case "ArrowLeft": move(-1); ev.preventDefault(); ev.stopPropagation(); break;
      default: return;
    }
  }, true);

  // Wiring.
  ["kind", "chapter", "tag", "difficulty"].forEach(function (k) {
    filters[k].addEventListener("change", function () { wantCode = ""; rebuild(); });
  });
  $("pr-due").addEventListener("change", rebuild);
  $("pr-filters").addEventListener("submit", function (ev) { ev.preventDefault(); });
  $("pr-shuffle").addEventListener("click", shuffle);
  $("pr-answer-form").addEventListener("submit", function (ev) { ev.preventDefault(); reveal(); });
  Array.prototype.forEach.call($("pr-grades").querySelectorAll("button[data-grade]"), function (b) {
    b.addEventListener("click", function () { grade(+b.getAttribute("data-grade")); });
  });
  $("pr-prev").addEventListener("click", function () { move(-1); });
  $("pr-next").addEventListener("click", function () { move(1); });
  $("pr-another").addEventListener("click", function () { another(); });
  $("pr-export").addEventListener("click", download);
  $("pr-import").addEventListener("change", function () {
    var f = this.files && this.files[0];
    if (!f) return;
    var input = this;
    f.text().then(function (text) {
      var n = importJSON(text);
      say("pr-io-status", "Imported the schedule of " + n + (n === 1 ? " card" : " cards") + " from " + f.name + ".");
    }).catch(function (e) {
      say("pr-io-status", "Could not import " + f.name + ": " + e.message + ". Your progress is unchanged.");
    }).then(function () { input.value = ""; });
  });
  $("pr-reset").addEventListener("click", function () { $("pr-reset-confirm").hidden = false; $("pr-reset-yes").focus(); });
  $("pr-reset-no").addEventListener("click", function () { $("pr-reset-confirm").hidden = true; $("pr-reset").focus(); });
  $("pr-reset-yes").addEventListener("click", function () { $("pr-reset-confirm").hidden = true; reset(); $("pr-reset").focus(); });
  $("pr-mock-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    mockStart(+$("pr-mock-n").value).catch(function (err) { say("pr-status", "Could not start the interview: " + err.message); });
  });
  $("pr-mock-next").addEventListener("click", function () { mockNext(); });
  $("pr-mock-stop").addEventListener("click", function () { if (mock) { mock.n = mock.at + 1; mockNext(); } });
  window.addEventListener("hashchange", function () { if (readHash()) rebuild(); });
  window.addEventListener("storage", function (ev) { if (ev.key === storeKey) { state = load(); status(); } });

  wb.practice = {
    cards: function () {
      return cards.map(function (c) {
        return { id: c.id, kind: c.kind, chapter: c.chapter, tags: c.tags.slice(), difficulty: c.difficulty, number: c.number, tolerance: c.tolerance, choices: c.choices.slice(), simulated: !!c.simulated };
      });
    },
    queue: function () { return queue.slice(); },
    current: function () { var c = current(); return c ? c.id : null; },
    // ready resolves once the card shown is on the page (its chunk, or
    // its problem, loaded).
    ready: function () { return shown; },
    revealed: function () { return revealed; },
    state: function (id) { return state.cards[id] || null; },
    filter: function (f) {
      ["kind", "chapter", "tag", "difficulty"].forEach(function (k) { if (f && k in f) filters[k].value = f[k] || ""; });
      if (f && "due" in f) $("pr-due").checked = !!f.due;
      wantCode = "";
      rebuild();
      return queue.length;
    },
    go: function (id) { var i = queue.indexOf(id); if (i < 0) return false; pos = i; show(); return true; },
    answer: function (text) { $("pr-answer").value = text; },
    pick: pick,
    reveal: reveal,
    grade: grade,
    next: function () { return move(1); },
    prev: function () { return move(-1); },
    shuffle: shuffle,
    exportJSON: exportJSON,
    importJSON: importJSON,
    reset: reset,
    // families returns the names of the families of generated problems.
    families: function () { return Object.keys(families); },
    // generate returns a promise of the problem of a family and a seed:
    // {params, question, answer, solution, parts, ...}, as the engine made it.
    generate: function (family, seed) {
      return ask({ op: "generate", family: family, seed: seed >>> 0 }).then(function (r) { return r.problem; });
    },
    // show shows the problem of a family and a seed on the page, as its
    // family's card, and resolves to it.
    show: function (family, seed) {
      var f = families[family];
      if (!f) return Promise.reject(new Error("no family " + family));
      var i = queue.indexOf(f.id);
      if (i < 0) { filters.kind.value = ""; filters.chapter.value = ""; filters.tag.value = ""; filters.difficulty.value = ""; $("pr-due").checked = false; rebuild(); i = queue.indexOf(f.id); }
      pos = i;
      wantCode = "";
      wantSeed = seed >>> 0;
      return show().then(function () { return problem && problem.p; });
    },
    // check answers the problem shown (answers by part name, through its
    // form) and resolves to the engine's grade once it is shown and
    // recorded.
    check: function (answers) {
      var a = box.querySelector("article.pr-gen");
      if (!problem || !a) return Promise.reject(new Error("no problem shown"));
      fill(a, problem.p, answers);
      a.querySelector("form.pr-parts").requestSubmit();
      return checking || Promise.resolve(problem.graded);
    },
    lastGrade: function () { return lastGrade; },
    mock: {
      start: function (n, seed) { return mockStart(n, seed); },
      answer: function (answers) {
        var a = $("pr-mock-card").querySelector("article");
        if (mock && a) fill(a, mock.iv.steps[mock.at].problem, answers);
      },
      next: function () { return mockNext(); },
      step: function () { return mock ? mock.iv.steps[mock.at].problem : null; },
      active: function () { return !!mock; },
      results: function () { return results; }
    }
  };

  readHash();
  rebuild();
})();
