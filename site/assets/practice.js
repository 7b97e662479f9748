// warpbook: the practice page. The page lists every card (interview
// questions and predict cards, made by the build); this script turns the
// list into a drill: one card at a time, answer first, then the book's
// answer and a grade (again, hard, good, easy) that FSRS (assets/fsrs.js,
// ts-fsrs) turns into the card's next review. The schedule lives in
// localStorage, exports and imports as a JSON file, and never leaves the
// browser: the script makes no network request.
//
// window.warpbook.practice is the scripting contract the browser tests use.
(function () {
  "use strict";
  var wb = window.warpbook = window.warpbook || {};
  var box = document.getElementById("pr-cards");
  if (!box || !window.FSRS) return;
  var F = window.FSRS;
  var scheduler = F.fsrs(F.generatorParameters({ enable_fuzz: false }));
  var book = box.getAttribute("data-book") || "";
  var storeKey = "warpbook-practice/" + book;
  var FORMAT = "warpbook-practice";
  var $ = function (id) { return document.getElementById(id); };

  // The cards, from the page.
  var cards = Array.prototype.map.call(box.querySelectorAll("article.pcard"), function (el, i) {
    var choices = Array.prototype.map.call(el.querySelectorAll(".pcard-choices li"), function (li) { return li.textContent; });
    return {
      el: el, index: i,
      id: el.getAttribute("data-id"),
      kind: el.getAttribute("data-card"),
      chapter: el.getAttribute("data-chapter") || "",
      tags: (el.getAttribute("data-tags") || "").split(" ").filter(Boolean),
      difficulty: el.getAttribute("data-difficulty") || "",
      number: el.hasAttribute("data-number") ? +el.getAttribute("data-number") : null,
      tolerance: el.hasAttribute("data-tolerance") ? +el.getAttribute("data-tolerance") : null,
      choices: choices
    };
  });
  var byID = {};
  cards.forEach(function (c) { byID[c.id] = c; });

  // The schedule: FSRS's card per id, as JSON (dates as ISO strings).
  var state = load();
  function empty() { return { format: FORMAT, version: 1, reviews: 0, cards: {} }; }
  function load() {
    try {
      var s = JSON.parse(localStorage.getItem(storeKey) || "null");
      if (s && s.format === FORMAT && s.version === 1 && s.cards) return s;
    } catch (e) { /* storage off or damaged: start afresh */ }
    return empty();
  }
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
    writeHash();
    show();
  }
  function shuffle() {
    for (var i = queue.length - 1; i > 0; i--) {
      var j = Math.floor(Math.random() * (i + 1));
      var t = queue[i]; queue[i] = queue[j]; queue[j] = t;
    }
    pos = 0;
    show();
  }
  function readHash() {
    var h = location.hash.replace(/^#/, "");
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
    if (location.hash !== h && (h || location.hash)) history.replaceState(null, "", h || location.pathname + location.search);
  }

  // One card at a time.
  function current() { return queue.length ? byID[queue[pos]] : null; }
  function show() {
    var c = current();
    cards.forEach(function (x) { x.el.hidden = x !== c; x.el.classList.remove("pr-asking", "pr-current"); });
    revealed = false;
    picked = -1;
    $("pr-answer").value = "";
    $("pr-answer").readOnly = false;
    $("pr-verdict").textContent = "";
    $("pr-grades").hidden = true;
    $("pr-reveal").disabled = !c;
    var ch = $("pr-choices");
    ch.textContent = "";
    if (c) {
      c.el.classList.add("pr-asking", "pr-current");
      c.el.querySelector("details.pcard-answer").open = false;
      c.choices.forEach(function (text, i) {
        var b = document.createElement("button");
        b.type = "button";
        b.className = "pr-choice";
        b.setAttribute("aria-pressed", "false");
        b.textContent = text;
        b.addEventListener("click", function () { pick(i); });
        ch.appendChild(b);
      });
    }
    ch.hidden = !c || c.choices.length === 0;
    status();
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
    if (!c || revealed || i < 0 || i >= c.choices.length) return;
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
    if (c.number === null) return null;
    var x = numberIn(answer);
    return x !== null && Math.abs(x - c.number) <= c.tolerance + 1e-9;
  }
  function reveal() {
    var c = current();
    if (!c || revealed) return null;
    revealed = true;
    c.el.classList.remove("pr-asking");
    c.el.querySelector("details.pcard-answer").open = true;
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
  function grade(g) {
    var c = current();
    if (!c || !revealed || g < 1 || g > 4) return;
    var rec = scheduler.next(fsrsCard(c.id), now(), g);
    state.cards[c.id] = stored(rec.card);
    state.reviews++;
    save();
    // A card due again today comes back at the end of a due-today queue.
    if ($("pr-due").checked) {
      queue.splice(pos, 1);
      if (rec.card.due <= endOfToday()) queue.push(c.id);
      if (pos >= queue.length) pos = 0;
    } else {
      pos = queue.length ? (pos + 1) % queue.length : 0;
    }
    show();
    $("pr-answer").focus();
  }
  function move(d) {
    if (!queue.length) return;
    pos = (pos + d + queue.length) % queue.length;
    show();
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
    if (!s || s.format !== FORMAT) throw new Error("not a warpbook practice file (no \"format\": \"" + FORMAT + "\")");
    if (s.version !== 1) throw new Error("version " + s.version + " is not one this page reads (1)");
    if (!s.cards || typeof s.cards !== "object" || Array.isArray(s.cards)) throw new Error("no cards");
    var cardsIn = {};
    Object.keys(s.cards).forEach(function (id) {
      var c = s.cards[id];
      if (!c || typeof c !== "object" || isNaN(Date.parse(c.due)) || typeof c.stability !== "number" || typeof c.difficulty !== "number" || typeof c.reps !== "number" || typeof c.state !== "number") {
        throw new Error("card " + id + " is not a schedule (due, stability, difficulty, reps, state)");
      }
      cardsIn[id] = c;
    });
    state = { format: FORMAT, version: 1, reviews: typeof s.reviews === "number" ? s.reviews : 0, cards: cardsIn };
    save();
    rebuild();
    return Object.keys(cardsIn).length;
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

  // The mock interview: N cards at random, a time limit each, the answers
  // at the end. It leaves the schedule alone.
  var mock = null;
  function mockStart(n, secs) {
    var pool = cards.filter(wanted);
    var qs = pool.filter(function (c) { return c.kind === "question"; });
    if (qs.length) pool = qs;
    if (!pool.length) { say("pr-status", "No card matches: change the choice above."); return false; }
    pool = pool.slice();
    for (var i = pool.length - 1; i > 0; i--) {
      var j = Math.floor(Math.random() * (i + 1));
      var t = pool[i]; pool[i] = pool[j]; pool[j] = t;
    }
    n = Math.max(1, Math.min(n | 0 || 5, pool.length));
    mock = { cards: pool.slice(0, n), secs: Math.max(1, secs | 0 || 120), at: -1, answers: [], timer: 0, deadline: 0 };
    $("pr-drill").hidden = true;
    box.hidden = true;
    $("pr-results").hidden = true;
    $("pr-mock").hidden = false;
    mockNext();
    return true;
  }
  function mockRecord(timedOut) {
    if (!mock || mock.at < 0 || mock.at >= mock.cards.length) return;
    mock.answers[mock.at] = { answer: $("pr-mock-answer").value.trim(), timedOut: !!timedOut, seconds: Math.min(mock.secs, Math.round((Date.now() - mock.started) / 1000)) };
  }
  function mockNext(timedOut) {
    if (!mock) return;
    mockRecord(timedOut);
    clearInterval(mock.timer);
    mock.at++;
    if (mock.at >= mock.cards.length) { mockEnd(); return; }
    var c = mock.cards[mock.at];
    var q = c.el.cloneNode(true);
    q.hidden = false;
    q.classList.remove("pr-asking", "pr-current");
    q.removeAttribute("data-card");
    q.removeAttribute("data-id");
    var d = q.querySelector("details.pcard-answer");
    if (d) d.remove();
    $("pr-mock-card").textContent = "";
    $("pr-mock-card").appendChild(q);
    $("pr-mock-answer").value = "";
    $("pr-mock-count").textContent = "Question " + (mock.at + 1) + " of " + mock.cards.length + ".";
    $("pr-mock-next").textContent = mock.at + 1 === mock.cards.length ? "Finish" : "Next question";
    mock.started = Date.now();
    mock.deadline = mock.started + mock.secs * 1000;
    tick();
    mock.timer = setInterval(tick, 250);
    $("pr-mock-answer").focus();
  }
  function tick() {
    var left = Math.max(0, Math.ceil((mock.deadline - Date.now()) / 1000));
    $("pr-timer").textContent = Math.floor(left / 60) + ":" + ("0" + left % 60).slice(-2) + " left";
    if (left === 0) mockNext(true);
  }
  function mockEnd() {
    clearInterval(mock.timer);
    mockRecord(false);
    var list = $("pr-results-list");
    list.textContent = "";
    mock.results = mock.cards.map(function (c, i) {
      var a = mock.answers[i] || { answer: "", timedOut: false, seconds: 0 };
      var li = document.createElement("li");
      var h = document.createElement("h3");
      h.textContent = c.el.querySelector(".pcard-q").textContent;
      li.appendChild(h);
      var mine = document.createElement("p");
      mine.className = "pr-mine";
      mine.textContent = "Your answer: " + (a.answer || (a.timedOut ? "(none: the time ran out)" : "(none)"));
      var ok = a.answer ? judge(c, a.answer) : null;
      if (ok !== null) mine.textContent += ok ? " (right)" : " (not quite)";
      li.appendChild(mine);
      var body = c.el.querySelector(".pcard-answer-body").cloneNode(true);
      body.removeAttribute("id");
      li.appendChild(body);
      li.appendChild(c.el.querySelector(".pcard-links").cloneNode(true));
      list.appendChild(li);
      return { id: c.id, answer: a.answer, timedOut: a.timedOut, correct: ok };
    });
    $("pr-mock").hidden = true;
    $("pr-results").hidden = false;
    $("pr-drill").hidden = false;
    box.hidden = false;
    $("pr-results-title").focus();
    var r = mock.results;
    mock = null;
    wb.practice._results = r;
  }

  // Keys: Space reveals, 1-4 grade, ← → move. They take precedence over
  // the site's ← → pages here.
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
    var button = t && (t.tagName === "BUTTON" || t.tagName === "A" || t.tagName === "SUMMARY");
    switch (ev.key) {
      case " ":
        if (button && !revealed && t.id !== "pr-reveal") return;
        if (button && revealed) return;
        ev.preventDefault();
        reveal();
        break;
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
  ["kind", "chapter", "tag", "difficulty"].forEach(function (k) { filters[k].addEventListener("change", rebuild); });
  $("pr-due").addEventListener("change", rebuild);
  $("pr-filters").addEventListener("submit", function (ev) { ev.preventDefault(); });
  $("pr-shuffle").addEventListener("click", shuffle);
  $("pr-answer-form").addEventListener("submit", function (ev) { ev.preventDefault(); reveal(); });
  Array.prototype.forEach.call($("pr-grades").querySelectorAll("button[data-grade]"), function (b) {
    b.addEventListener("click", function () { grade(+b.getAttribute("data-grade")); });
  });
  $("pr-prev").addEventListener("click", function () { move(-1); });
  $("pr-next").addEventListener("click", function () { move(1); });
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
  $("pr-mock-form").addEventListener("submit", function (ev) { ev.preventDefault(); mockStart(+$("pr-mock-n").value, +$("pr-mock-secs").value); });
  $("pr-mock-next").addEventListener("click", function () { mockNext(false); });
  $("pr-mock-stop").addEventListener("click", function () { if (mock) { mockRecord(false); mock.cards = mock.cards.slice(0, mock.at + 1); mockEnd(); } });
  window.addEventListener("hashchange", function () { if (readHash()) rebuild(); });
  window.addEventListener("storage", function (ev) { if (ev.key === storeKey) { state = load(); status(); } });

  wb.practice = {
    cards: function () {
      return cards.map(function (c) {
        return { id: c.id, kind: c.kind, chapter: c.chapter, tags: c.tags.slice(), difficulty: c.difficulty, number: c.number, tolerance: c.tolerance, choices: c.choices.slice() };
      });
    },
    queue: function () { return queue.slice(); },
    current: function () { var c = current(); return c ? c.id : null; },
    revealed: function () { return revealed; },
    state: function (id) { return state.cards[id] || null; },
    filter: function (f) {
      ["kind", "chapter", "tag", "difficulty"].forEach(function (k) { if (f && k in f) filters[k].value = f[k] || ""; });
      if (f && "due" in f) $("pr-due").checked = !!f.due;
      rebuild();
      return queue.length;
    },
    go: function (id) { var i = queue.indexOf(id); if (i < 0) return false; pos = i; show(); return true; },
    answer: function (text) { $("pr-answer").value = text; },
    pick: pick,
    reveal: reveal,
    grade: grade,
    next: function () { move(1); },
    prev: function () { move(-1); },
    shuffle: shuffle,
    exportJSON: exportJSON,
    importJSON: importJSON,
    reset: reset,
    mock: {
      start: mockStart,
      answer: function (text) { $("pr-mock-answer").value = text; },
      next: function () { mockNext(false); },
      active: function () { return !!mock; },
      results: function () { return wb.practice._results || null; }
    }
  };

  readHash();
  rebuild();
})();
