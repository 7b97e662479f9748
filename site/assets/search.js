// warpbook search. The index (assets/search-index.js, written by the build)
// holds every section's title, headings, prose, code and outputs; on the
// first search this script loads it with MiniSearch (assets/minisearch.js,
// vendored) from the site's own folder, so that search works from file://
// and offline, and indexes it with field weights, prefix and typo
// tolerance, and the same stop words and plurals on both sides. Results
// whose text holds the query as a phrase come first. Identifiers
// (smsp__..., cudaOccupancy..., sm_89) are kept whole, and also indexed by
// their parts.
//
// window.warpbook.search(query) returns a promise of the ranked results,
// each {title, page, kind, url, excerpt}: what the search box shows.
(function () {
  "use strict";
  var wb = window.warpbook = window.warpbook || {};
  var doc = document.documentElement;
  var root = doc.getAttribute("data-root") || "";

  // Words too common to tell sections apart: dropped from the index and
  // from queries alike (a phrase still counts them, see phraseBoost).
  var STOP = {};
  ("a an and are as at be but by can do does for from has have how i if in into is it its me my not of on or so " +
    "than that the their then there these this those to was we what when where which while who why will with would you your")
    .split(" ").forEach(function (w) { STOP[w] = true; });

  // A word: letters, digits and '_', joined by '.' or an apostrophe inside
  // ("sm_89", "8.9", "smsp__warps_issue_stalled_long_scoreboard_per_warp_active.pct",
  // "A100's"), with a trailing '%' ("75%"; "75 %" is read as "75%").
  var WORD = /[\p{L}\p{N}_]+(?:['’.][\p{L}\p{N}_]+)*%?/gu;
  function words(text) {
    return text.replace(/(\d)[ \u00a0\u202f]+%/g, "$1%").match(WORD) || [];
  }

  // indexWords are the words of a field as indexed: a word past its third
  // time in the field adds nothing to its score (BM25 saturates) and only
  // costs indexing time, so it is left out.
  function indexWords(text) {
    var all = words(text), seen = new Map(), out = [];
    for (var i = 0; i < all.length; i++) {
      var k = all[i].toLowerCase(), n = seen.get(k) || 0;
      if (n < 3) { seen.set(k, n + 1); out.push(all[i]); }
    }
    return out;
  }

  // stem folds the plural: "registers" and "register", "latencies" and
  // "latency" are one term. Identifiers and short words stay as they are.
  function stem(w) {
    if (w.length < 4 || /[\d_.%]/.test(w)) return w;
    if (/[^aeiou]ies$/.test(w)) return w.slice(0, -3) + "y";
    if (/(ss|us|is)$/.test(w)) return w;
    if (/s$/.test(w)) return w.slice(0, -1);
    return w;
  }
  function base(term) {
    return term.toLowerCase().replace(/['’]s?$/, "").replace(/’/g, "'");
  }
  // The parts of an identifier: "cudaOccupancyMaxActiveBlocks" gives cuda,
  // occupancy, max, active, blocks; "long_scoreboard" gives long, scoreboard.
  function parts(term) {
    if (!/[_.]|[a-z][A-Z]/.test(term)) return [];
    return term.replace(/([a-z])([A-Z])/g, "$1 $2").split(/[ _.]+/).filter(function (p) { return p.length > 1; });
  }
  // indexTerms returns what a word of the book is indexed as, computed
  // once per spelling: a book has some 100,000 words and 6,000 spellings.
  var termCache = new Map();
  function indexTerms(term) {
    var v = termCache.get(term);
    if (v === undefined) {
      v = indexTermsOf(term);
      termCache.set(term, v);
    }
    return v;
  }
  function indexTermsOf(term) {
    var w = base(term);
    if (STOP[w]) return null;
    var out = [stem(w)];
    parts(term).forEach(function (p) {
      p = stem(p.toLowerCase());
      if (!STOP[p] && out.indexOf(p) < 0) out.push(p);
    });
    return out;
  }
  // queryTerms returns what a word of a query searches for: an identifier
  // as a whole (a section that holds it ranks first) and by its parts (for
  // a name the book writes in pieces, or a metric it lists in another
  // form).
  function queryTerms(term) {
    var w = base(term);
    if (STOP[w]) return null;
    var out = [stem(w)];
    // A pasted name the book writes only in part, or as a pattern
    // ("smsp__average_warps_issue_stalled_<reason>_..."), still finds it:
    // each leading part of the name is a prefix query.
    var cuts = w.split(/(?=[_.])/);
    for (var i = cuts.length - 1; i >= 2; i--) {
      var head = cuts.slice(0, i).join("").replace(/[_.]+$/, "");
      if (head.length >= 6 && out.indexOf(head) < 0) out.push(head);
    }
    parts(term).forEach(function (p) {
      p = stem(p.toLowerCase());
      if (!STOP[p] && p.length > 2 && out.indexOf(p) < 0) out.push(p);
    });
    return out;
  }
  // An identifier, or a leading part of one, weighs more than a word.
  function boostTerm(term) { return /[_.]/.test(term) ? 2 : 1; }

  var state = { loading: null, quick: null, index: null, docs: null, pages: null, timing: {} };
  function loadScript(src) {
    return new Promise(function (resolve, reject) {
      var s = document.createElement("script");
      s.src = root + src;
      s.onload = resolve;
      s.onerror = function () { reject(new Error("could not load " + src)); };
      document.head.appendChild(s);
    });
  }
  function newIndex(fields) {
    return new window.MiniSearch({
      fields: fields,
      tokenize: indexWords,
      processTerm: indexTerms,
      searchOptions: {
        tokenize: words,
        processTerm: queryTerms,
        boost: { t: 4, h: 2, x: 1, c: 0.7, o: 0.7 },
        boostTerm: boostTerm,
        combineWith: "OR",
        prefix: function (term) { return term.length >= 3; },
        fuzzy: function (term) { return term.length >= 5 && !/[\d_.%]/.test(term) ? 0.2 : false; },
        maxFuzzy: 2,
        weights: { fuzzy: 0.35, prefix: 0.6 }
      }
    });
  }
  // load loads the book and indexes it once: first its titles and
  // headings, which answer a first query at once, then, a moment later so
  // that those results can show, all of it.
  function load() {
    if (state.loading) return state.loading;
    var t0 = performance.now();
    var quick = Promise.all([loadScript("assets/minisearch.js"), loadScript("assets/search-index.js")]).then(function () {
      var t1 = performance.now();
      var data = window.warpbookSearch;
      state.pages = data.pages;
      state.docs = data.docs.map(function (d, i) {
        return { id: i, t: d[0], p: d[1], u: d[2], k: d[3], h: d[4], x: d[5], c: d[6], o: d[7] };
      });
      var q = newIndex(["t", "h"]);
      q.addAll(state.docs);
      state.quick = q;
      state.timing = { load: t1 - t0, quick: performance.now() - t1 };
    });
    state.quickLoading = quick;
    state.loading = quick.then(function () {
      return new Promise(function (resolve) { setTimeout(resolve, 0); });
    }).then(function () {
      var t2 = performance.now();
      var ms = newIndex(["t", "h", "x", "c", "o"]);
      ms.addAll(state.docs);
      state.docs.forEach(function (d) {
        d.flatTitle = flat(d.t);
        d.flat = flat(d.h + "\n" + d.x + "\n" + d.o + "\n" + d.c);
      });
      state.index = ms;
      state.timing.index = performance.now() - t2;
    });
    return state.loading;
  }

  // flat lower-cases text and keeps only its words, one space apart: what
  // phraseBoost looks for the query in. Each document's is made once, when
  // the full index is built.
  function flat(text) {
    return " " + text.toLowerCase().replace(/[^\p{L}\p{N}_%]+/gu, " ") + " ";
  }
  // phraseBoost favours a document that holds the query as written, stop
  // words included, or at least some of its word pairs in order.
  function phraseBoost(d, q) {
    if (q.length < 2 || !d.flat) return 1;
    var phrase = " " + q.join(" ") + " ";
    if (d.flatTitle.indexOf(phrase) >= 0) return 6;
    if (d.flat.indexOf(phrase) >= 0) return 4;
    var pairs = 0;
    for (var i = 0; i + 1 < q.length; i++) {
      var pair = " " + q[i] + " " + q[i + 1] + " ";
      if (d.flat.indexOf(pair) >= 0 || d.flatTitle.indexOf(pair) >= 0) pairs++;
    }
    return 1 + pairs / (q.length - 1);
  }

  function escapeHTML(s) {
    return s.replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; });
  }

  // excerpt cuts about 160 characters of the document around the part
  // where most of the matched terms lie, and marks them. A term is found
  // where a word (or a part of an identifier) starts with it; a folded
  // plural ("latency") is found as written ("latencies").
  function excerpt(d, terms) {
    var alts = [];
    terms.forEach(function (t) {
      var e = t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      alts.push(e);
      if (/y$/.test(t)) alts.push(e.slice(0, -1) + "ies");
    });
    alts.sort(function (a, b) { return b.length - a.length; });
    var re = new RegExp(alts.join("|"), "gi");
    var inWord = /[\p{L}\p{N}]/u;
    var best = null;
    var fields = [d.x, d.o, d.c, d.h];
    for (var f = 0; f < fields.length; f++) {
      var text = fields[f];
      if (!text) continue;
      var hits = [], m;
      re.lastIndex = 0;
      while ((m = re.exec(text)) !== null) {
        if (m.index > 0 && inWord.test(text[m.index - 1])) continue; // inside a word
        hits.push({ at: m.index, end: m.index + m[0].length, term: m[0].toLowerCase() });
        if (hits.length > 400) break;
      }
      // The window of 160 characters with the most distinct terms.
      for (var i = 0, j = 0; i < hits.length; i++) {
        while (hits[j].at < hits[i].end - 160) j++;
        var seen = {}, n = 0;
        for (var h = j; h <= i; h++) if (!seen[hits[h].term]) { seen[hits[h].term] = true; n++; }
        if (!best || n > best.n) best = { n: n, text: text, hits: hits.slice(j, i + 1) };
      }
      if (best && best.n >= terms.length) break;
    }
    if (!best) {
      var t = (d.x || d.o || d.c || "").replace(/\s+/g, " ");
      return { text: t.slice(0, 160), html: escapeHTML(t.slice(0, 160)) };
    }
    var first = best.hits[0].at, last = best.hits[best.hits.length - 1].end;
    var from = Math.max(0, first - Math.max(20, (160 - (last - first)) / 2) | 0);
    var to = Math.min(best.text.length, Math.max(last, from + 160));
    var s = best.text, html = "", plain = "", at = from;
    best.hits.forEach(function (hit) {
      if (hit.at < at || hit.end > to) return;
      html += escapeHTML(s.slice(at, hit.at)) + "<mark>" + escapeHTML(s.slice(hit.at, hit.end)) + "</mark>";
      plain += s.slice(at, hit.end);
      at = hit.end;
    });
    html += escapeHTML(s.slice(at, to));
    plain += s.slice(at, to);
    var pre = from > 0 ? "… " : "", post = to < s.length ? " …" : "";
    return { text: (pre + plain + post).replace(/\s+/g, " "), html: (pre + html + post).replace(/\s+/g, " ") };
  }

  // run searches the full index, or the titles and headings while the
  // full one is being built.
  function run(query, limit) {
    var ms = state.index || state.quick;
    var q = words(query).map(function (w) { return base(w); });
    if (!ms || q.length === 0) return [];
    var found = ms.search(query).slice(0, 40);
    var qf = flat(query).trim().split(" ");
    found.forEach(function (r) { r.score *= phraseBoost(state.docs[r.id], qf); });
    found.sort(function (a, b) { return b.score - a.score || a.id - b.id; });
    return found.slice(0, limit || 12).map(function (r) {
      var d = state.docs[r.id];
      var ex = excerpt(d, r.terms);
      var kind = { s: "", t: "Glossary", q: "Question" }[d.k] || "";
      return { title: d.t, page: state.pages[d.p], kind: kind, url: root + d.u, excerpt: ex.text, excerptHTML: ex.html };
    });
  }

  // search is the scripting contract: a promise of ranked results, from
  // the full index.
  wb.search = function (query, limit) {
    return load().then(function () { return run(String(query), limit); });
  };
  // searchSoon is what the search box uses: the titles' results as soon as
  // they are there (complete false), then the full results.
  function searchSoon(query, show) {
    if (state.index) { show(run(query), true); return; }
    load();
    state.quickLoading.then(function () {
      if (!state.index) show(run(query), false);
      return state.loading;
    }).then(function () { show(run(query), true); });
  }
  // searchTiming says how long loading the index took, and building its
  // titles' and its full index (milliseconds).
  wb.searchTiming = function () { return state.timing; };

  function setup() {
    var input = document.getElementById("wb-q");
    var list = document.getElementById("wb-results");
    if (!input || !list) return;
    var selected = -1;
    var shown = "";
    function close() {
      list.hidden = true;
      input.setAttribute("aria-expanded", "false");
      input.removeAttribute("aria-activedescendant");
      selected = -1;
    }
    function options() { return list.querySelectorAll("li[role=option]:not([aria-disabled])"); }
    function select(i) {
      var items = options();
      if (items.length === 0) return;
      selected = (i + items.length) % items.length;
      for (var k = 0; k < items.length; k++) items[k].setAttribute("aria-selected", k === selected ? "true" : "false");
      input.setAttribute("aria-activedescendant", items[selected].id);
      items[selected].scrollIntoView({ block: "nearest" });
    }
    function render(q, results, complete) {
      var keep = selected;
      list.innerHTML = "";
      selected = -1;
      shown = q;
      list.setAttribute("aria-busy", complete ? "false" : "true");
      if (results.length === 0 && complete) {
        var none = document.createElement("li");
        none.className = "none";
        none.setAttribute("role", "option");
        none.setAttribute("aria-disabled", "true");
        none.id = "wb-result-none";
        none.textContent = "No results for “" + q + "”";
        list.appendChild(none);
      }
      results.forEach(function (r, i) {
        var li = document.createElement("li");
        li.setAttribute("role", "option");
        li.setAttribute("aria-selected", "false");
        li.id = "wb-result-" + i;
        var a = document.createElement("a");
        a.href = r.url;
        a.tabIndex = -1;
        var t = document.createElement("span");
        t.className = "t";
        t.textContent = r.title;
        var where = document.createElement("span");
        where.className = "where";
        where.textContent = r.kind && r.kind !== r.page ? r.kind + " · " + r.page : r.page;
        var ex = document.createElement("span");
        ex.className = "excerpt";
        ex.innerHTML = r.excerptHTML;
        a.appendChild(t);
        a.appendChild(where);
        a.appendChild(ex);
        li.appendChild(a);
        list.appendChild(li);
      });
      if (!complete) {
        var more = document.createElement("li");
        more.className = "none";
        more.setAttribute("role", "option");
        more.setAttribute("aria-disabled", "true");
        more.id = "wb-result-more";
        more.textContent = "Searching the full text…";
        list.appendChild(more);
      }
      list.hidden = false;
      input.setAttribute("aria-expanded", "true");
      if (keep >= 0) select(keep);
    }
    function update() {
      var q = input.value.trim();
      if (!q) { close(); shown = ""; return; }
      searchSoon(q, function (results, complete) {
        if (input.value.trim() === q) render(q, results, complete);
      });
    }
    input.addEventListener("focus", function () { load(); });
    input.addEventListener("input", update);
    input.addEventListener("keydown", function (ev) {
      var n = options().length;
      if (ev.key === "ArrowDown") { ev.preventDefault(); if (list.hidden && input.value.trim()) update(); else select(selected + 1); }
      else if (ev.key === "ArrowUp") { ev.preventDefault(); select(selected - 1); }
      else if (ev.key === "Home" && selected >= 0) { ev.preventDefault(); select(0); }
      else if (ev.key === "End" && selected >= 0) { ev.preventDefault(); select(n - 1); }
      else if (ev.key === "Enter") {
        var q = input.value.trim();
        if (!q) return;
        ev.preventDefault();
        if (q !== shown) {
          // Results for what was typed are not shown yet: go to the best.
          wb.search(q, 1).then(function (r) { if (r.length > 0) window.location.href = r[0].url; });
          return;
        }
        var items = list.querySelectorAll("li[role=option]:not([aria-disabled]) a");
        var a = items[selected >= 0 ? selected : 0];
        if (a) window.location.href = a.href;
      } else if (ev.key === "Escape") {
        if (!list.hidden) { close(); } else { input.blur(); }
      }
    });
    document.addEventListener("click", function (ev) {
      if (!ev.target.closest || !ev.target.closest(".wb-search")) close();
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
})();
