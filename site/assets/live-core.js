// warpbook live, the core: everything a Run, an Edit or a figure's
// redraw needs, loaded by assets/live.js when the reader's pointer or
// focus first reaches a snippet's tools or a figure's form (so that a
// chapter weighs little until then). It defines warpbookLiveCore(api, h),
// which live.js calls once with the page's window.warpbook and its DOM
// helpers (el, button); see live.js for the scripting contract.
window.warpbookLiveCore = function (api, h) {
  "use strict";
  var doc = document.documentElement;
  var root = doc.getAttribute("data-root") || "";
  var sourceURL = doc.getAttribute("data-live-source");
  var kernelURL = doc.getAttribute("data-live-kernel");
  var off = doc.getAttribute("data-live-off");
  var el = h.el, button = h.button;

  var edits = {};   // cell id -> the reader's code
  var editors = {}; // cell id -> open editor
  var page = null;  // {path, source, facts, figures, packages} once loaded

  // Loading. Each asset is a script, loaded once (assets/warpbook.js).
  var loadScript = api.loadScript;
  function loadPage() {
    if (page) return Promise.resolve(page);
    return new Promise(function (resolve, reject) {
      window.warpbookLivePage = function (p) { page = p; resolve(p); };
      loadScript(sourceURL).catch(reject);
    });
  }

  // The kernel: one compiled module, one worker at a time.
  var kernel = null; // Promise of {module, data}
  var worker = null; // {w, ready: Promise}
  function loadKernel() {
    if (!kernel) {
      kernel = loadScript(kernelURL).then(function () {
        api.kernelTimes.script = performance.now();
        var data = window.warpbookKernelData;
        var gz = new Blob([api.fromBase64(data.wasm)]);
        var wasm = new Response(gz.stream().pipeThrough(new DecompressionStream("gzip")), { headers: { "Content-Type": "application/wasm" } });
        return WebAssembly.compileStreaming(wasm).then(function (module) {
          api.kernelTimes.compiled = performance.now();
          return { module: module, data: data };
        });
      });
      kernel.catch(function () { kernel = null; });
    }
    return kernel;
  }

  // The worker's code around the Go runtime's wasm_exec.js: a file system
  // whose standard output goes back to the kernel (see StdoutHook and
  // StdoutTake in snippets/internal/worker), kept here and handed over in
  // large chunks, since each crossing into Go costs more than the write,
  // and whose standard error is kept, in case the runtime dies.
  var prelude = "(" + function () {
    var dec = new TextDecoder(), stderr = "";
    var out = [], outLen = 0, outMax = 65536, parked = false;
    function take(begin) {
      if (begin) parked = false;
      if (outLen === 0) return null;
      var b = out[0];
      if (out.length > 1) {
        b = new Uint8Array(outLen);
        for (var i = 0, at = 0; i < out.length; at += out[i].length, i++) b.set(out[i], at);
      }
      out = [];
      outLen = 0;
      return b;
    }
    self.warpbookStdoutTake = take;
    function enosys() { var e = new Error("not implemented"); e.code = "ENOSYS"; return e; }
    function keep(buf) {
      stderr += dec.decode(buf, { stream: true });
      if (stderr.length > 65536) stderr = stderr.slice(-65536);
    }
    var fs = {
      constants: { O_WRONLY: -1, O_RDWR: -1, O_CREAT: -1, O_TRUNC: -1, O_APPEND: -1, O_EXCL: -1, O_DIRECTORY: -1 },
      // The runtime's own writes (a panic, a fatal error).
      writeSync: function (fd, buf) { keep(buf); return buf.length; },
      // The program's writes, through package syscall.
      write: function (fd, buf, offset, length, position, callback) {
        if (position !== null) { callback(enosys()); return; }
        var b = buf.subarray(offset, offset + length);
        if (fd === 1 && self.warpbookStdout) {
          // A write that is never completed parks its goroutine for good:
          // the module asks for it once the job that prints was stopped.
          if (parked) return;
          // Go made buf for this write alone: it can be kept as it is.
          out.push(b);
          outLen += b.length;
          if (outLen >= outMax && self.warpbookStdout(take()) === true) { parked = true; return; }
        } else keep(b);
        callback(null, length);
      },
      fsync: function (fd, callback) { callback(null); }
    };
    ["chmod", "chown", "close", "fchmod", "fchown", "fstat", "ftruncate", "lchown", "link", "lstat", "mkdir", "open", "read", "readdir", "readlink", "rename", "rmdir", "stat", "symlink", "truncate", "unlink", "utimes"].forEach(function (name) {
      fs[name] = function () { arguments[arguments.length - 1](enosys()); };
    });
    self.fs = fs;
    self.warpbookStderr = function () { return stderr; };
  } + ")();\n";
  var boot = "(" + function () {
    // An exception that escapes the module (the JavaScript engine's own
    // stack overflowing under runaway recursion: Go's calls nest in it)
    // leaves the runtime broken: the worker says so as if the runtime had
    // died, and the page starts a new one.
    self.onerror = function (message) {
      postMessage({ exited: -1, stderr: self.warpbookStderr() + "\n" + String(message) });
      return true;
    };
    self.onmessage = function (e) {
      var m = e.data;
      if (m.module) {
        var go = new Go();
        // The heap is mostly the interpreter's symbol tables and the
        // engine's type information, which never die: collecting less
        // often, from the runtime's start, costs memory, not time
        // (WebAssembly's collector runs on the one thread the snippets
        // run on). The module's memory cannot grow past 1 GiB, the memory
        // limit of a worker (see site/live): the soft limit is below it,
        // so that the collector works hard before the runtime runs out.
        go.env = { GOGC: "400", GOMEMLIMIT: "896MiB" };
        go.exit = function (code) { postMessage({ exited: code, stderr: self.warpbookStderr() }); };
        WebAssembly.instantiate(m.module, go.importObject).then(function (inst) { go.run(inst); },
          function (err) { postMessage({ exited: -1, stderr: String(err) }); });
        return;
      }
      self.warpbookKernel(m.req);
    };
  } + ")();\n";

  function startWorker(k) {
    var url = URL.createObjectURL(new Blob([prelude, k.data.exec, "\n", boot], { type: "text/javascript" }));
    var w = new Worker(url);
    URL.revokeObjectURL(url);
    var wk = { w: w, k: k, onMessage: null, sent: {} };
    wk.ready = new Promise(function (resolve) {
      w.onmessage = function (e) {
        if (e.data && e.data.ready) { api.kernelTimes.ready = performance.now(); resolve(); return; }
        if (wk.onMessage) wk.onMessage(e.data);
      };
    });
    w.postMessage({ module: k.module });
    return wk;
  }
  function stopWorker() {
    if (worker) worker.w.terminate();
    worker = null;
  }

  // Requests go one at a time; a cell that runs past its limit ends the
  // worker, and a new one reports it.
  var queue = Promise.resolve();
  var nextID = 1;
  function request(run) {
    var job = queue.then(function () { return send(run); });
    queue = job.catch(function () {});
    return job;
  }
  function requestFigure(fig) {
    var job = queue.then(function () {
      return loadKernel().then(function (k) {
        if (!worker) worker = startWorker(k);
        var wk = worker;
        return wk.ready.then(function () {
          return new Promise(function (resolve) {
            var id = nextID++;
            wk.onMessage = function (m) {
              if (typeof m !== "string") {
                if (m.exited !== undefined) { wk.onMessage = null; stopWorker(); resolve({ error: "the kernel stopped: " + (m.stderr || "") }); }
                return;
              }
              var r = JSON.parse(m);
              if (r.id !== id) return;
              wk.onMessage = null;
              resolve(r.figure || { error: r.error });
            };
            wk.w.postMessage({ req: JSON.stringify({ id: id, op: "figure", figure: fig }) });
          });
        });
      });
    });
    queue = job.catch(function () {});
    return job;
  }
  // longer is set by Allow longer: runs go to the book's limits, not the
  // page's api.timeLimit (see live.js).
  var longer = false;
  // inflight is the run the worker is busy with: its cell and how to
  // stop it.
  var inflight = null;
  function send(run) {
    return loadKernel().then(function (k) {
      if (!worker) worker = startWorker(k);
      var wk = worker;
      return wk.ready.then(function () {
        return new Promise(function (resolve) {
          var id = nextID++, timer = null, current = null, sentAt = performance.now();
          function finish(res) {
            clearTimeout(timer);
            wk.onMessage = null;
            inflight = null;
            resolve(res);
          }
          // stopped ends the worker (the one way to stop Go in
          // WebAssembly) and asks a new one for the diagnostic, at the
          // unit that was running: why is "stop" or "limit" when the
          // reader or the page's own limit stopped it.
          function stopped(stderr, why, afterMs) {
            clearTimeout(timer);
            wk.onMessage = null;
            inflight = null;
            stopWorker();
            var unit = current || run.cell;
            var again = Object.assign({}, run, { stopped: unit });
            if (stderr !== undefined) again.stderr = stderr;
            if (why) { again.reason = why; again.afterMs = afterMs || Math.round(performance.now() - sentAt); }
            resolve(send(again).then(function (res) { res.stoppedAt = unit; res.stoppedBy = why || ""; return res; }));
          }
          // The book's own code, as warpbook test checked it within the
          // book's limits, runs to those limits: only a run that carries
          // a reader's edit gets the page's shorter one.
          var edited = !!run.edits && Object.keys(run.edits).length > 0;
          inflight = { cell: run.cell, stop: function () { stopped(undefined, "stop"); } };
          wk.onMessage = function (m) {
            if (typeof m === "string") {
              var r = JSON.parse(m);
              if (r.id !== id) return;
              if (r.run && r.run.restart) stopWorker();
              finish(r.run || { status: "fail", stdout: "", error: r.error + "\n" });
              return;
            }
            if (m.started) {
              current = m.started;
              if (inflight) inflight.unit = current;
              sentAt = performance.now();
              clearTimeout(timer);
              var limit = m.limitMs, why;
              if (!longer && edited && api.timeLimit > 0 && api.timeLimit < limit) { limit = api.timeLimit; why = "limit"; }
              timer = setTimeout(function () { stopped(undefined, why, limit); }, limit);
            } else if (m.exited !== undefined) {
              stopped(m.stderr || "the kernel stopped (exit status " + m.exited + ")");
            }
          };
          var req = run;
          if (wk.sent[run.path]) req = Object.assign({}, run, { source: "", facts: undefined, packages: undefined });
          wk.sent[run.path] = true;
          wk.w.postMessage({ req: JSON.stringify({ id: id, op: "run", run: req }) });
        });
      });
    });
  }

  // run runs a cell with the reader's edits (source, when given, is the
  // cell's new code) and shows the result.
  function run(id, source) {
    var cell = cellByID(id);
    if (!cell) return Promise.reject(new Error("no snippet " + id + " on this page"));
    if (source !== undefined && source !== null) {
      edits[id] = source;
      if (editors[id]) editors[id].setValue(source);
      cell.classList.add("edited");
    }
    if (!kernelURL) return Promise.resolve({ status: "fail", stdout: "", error: off + "\n" });
    var timing = { cell: id, start: api.runStart !== undefined ? api.runStart : performance.now() };
    api.runStart = undefined;
    for (var eid in editors) edits[eid] = editors[eid].getValue();
    var loading = !kernel || !worker, sent = {};
    busy(cell, loading ? "Loading the kernel…" : "Running…");
    // The kernel loads while the page's source does.
    if (!kernel) loadKernel().catch(function () {});
    return loadPage().then(function (p) {
      var ed = {};
      for (var k in edits) {
        // An edit that was stopped is not run again as a cell above
        // another: the others run with the book's code for it until
        // the reader runs that cell again.
        if (k !== id && held[k] !== undefined && held[k] === edits[k]) continue;
        ed[k] = edits[k];
      }
      sent = ed;
      return request({ path: p.path, source: p.source, facts: p.facts, packages: p.packages, cell: id, edits: ed });
    }).then(function (res) {
      idle(cell);
      if (res.stoppedAt && edits[res.stoppedAt] !== undefined) hold(res.stoppedAt);
      else if (!res.stoppedAt && held[id] !== undefined) unhold(id);
      show(cell, res);
      values(res.values || [], sent);
      timing.shown = performance.now();
      api.timings.push(timing);
      return res;
    }, function (err) {
      idle(cell);
      status(cell, "Could not run: " + err.message, "fail");
      throw err;
    });
  }
  // held holds the edits that were stopped, by cell id.
  var held = {};
  function hold(id) {
    held[id] = edits[id];
    var c = cellByID(id);
    if (c) c.classList.add("held");
  }
  function unhold(id) {
    delete held[id];
    var c = cellByID(id);
    if (c) c.classList.remove("held");
  }
  // busy shows that a cell runs: its Stop button, and after a second how
  // long it has run; idle ends that.
  function busy(cell, text) {
    idle(cell);
    status(cell, text, "busy");
    cell.querySelector(".cell-stop").hidden = false;
    var t0 = performance.now();
    cell.warpbookTick = setInterval(function () {
      var s = Math.round((performance.now() - t0) / 1000);
      status(cell, text.replace(/…$/, "") + "… " + s + " s", "busy");
    }, 1000);
  }
  function idle(cell) {
    clearInterval(cell.warpbookTick);
    var stop = cell.querySelector(".cell-stop");
    if (stop) stop.hidden = true;
  }
  // running says which cell or checked value the kernel is running: null
  // when it runs nothing, "" while it prepares a run.
  // timings holds, for each run, when it started and when its result was
  // shown (performance.now(), in ms): what the benchmarks measure.
  // kernelTimes says when the kernel's script loaded, its module compiled
  // and its last worker was ready.

  function cellByID(id) {
    var cells = document.querySelectorAll(".cell[data-cell]");
    for (var i = 0; i < cells.length; i++) {
      if (cells[i].getAttribute("data-cell") === id) return cells[i];
    }
    return null;
  }
  // setupLines lists the runs of setup lines of a cell's code as the book
  // shows it ([first, last], from 1): the lines it hides.
  function setupLines(cell) {
    var code = cell.querySelector("pre.code code"), runs = [], n = 1;
    if (!code) return runs;
    for (var c = code.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 1 && c.classList.contains("hl")) {
        var last = runs[runs.length - 1];
        if (last && last[1] === n - 1) last[1] = n; else runs.push([n, n]);
        n++;
        continue;
      }
      n += (c.textContent.match(/\n/g) || []).length;
    }
    return runs;
  }
  function codeOf(cell) {
    var code = cell.querySelector("pre.code code");
    return code ? code.textContent : "";
  }
  function status(cell, text, kind) {
    var s = cell.querySelector(".cell-status");
    s.textContent = text;
    s.setAttribute("data-state", kind || "");
  }

  // show writes a run's result under the cell's verified output.
  function show(cell, res) {
    var box = cell.querySelector(".cell-run");
    box.textContent = "";
    box.hidden = false;
    var label = el("p", "output-label", "Your run ");
    var verdict = {
      pass: ["✓ prints the verified output", "pass"],
      differs: ["prints something else than the verified output", "differs"],
      fail: ["failed", "fail"]
    }[res.status] || [res.status, "fail"];
    label.appendChild(el("span", "run-verdict run-" + verdict[1], verdict[0]));
    box.appendChild(label);
    if (res.stdout !== "" || res.status !== "fail") {
      var pre = el("pre", "output");
      pre.tabIndex = 0;
      pre.appendChild(el("code", "", res.stdout.replace(/\n$/, "")));
      box.appendChild(pre);
    }
    var why = res.panic || res.compileError;
    if (why && !res.error) {
      var p = el("pre", "output run-why");
      p.tabIndex = 0;
      p.appendChild(el("code", "", (res.panic ? "panic: " : "") + why));
      box.appendChild(p);
    }
    if (res.diff) {
      var d = el("details", "run-diff");
      d.open = true;
      d.appendChild(el("summary", "", "Difference from the verified output"));
      var dp = el("pre", "output");
      dp.tabIndex = 0;
      // Coloured as the book colours a diff: added and removed lines.
      var dc = el("code");
      res.diff.replace(/\n$/, "").split("\n").forEach(function (line, k) {
        if (k > 0) dc.appendChild(document.createTextNode("\n"));
        var c = /^\+(?!\+\+ )/.test(line) ? "diff-add" : /^-(?!-- )/.test(line) ? "diff-del" : /^@@/.test(line) ? "diff-hunk" : "";
        dc.appendChild(c ? el("span", c, line) : document.createTextNode(line));
      });
      dp.appendChild(dc);
      d.appendChild(dp);
      box.appendChild(d);
    }
    if (res.error) {
      var ep = el("pre", "output run-error");
      ep.tabIndex = 0;
      ep.appendChild(el("code", "", inEditorLines(res.error, res.marks || []).replace(/\n$/, "")));
      box.appendChild(ep);
    }
    markEditors(res.marks || []);
    if (res.stoppedAt) {
      var note = el("p", "run-note");
      if (held[res.stoppedAt] !== undefined) {
        note.appendChild(document.createTextNode("Your edit of " + res.stoppedAt + " was stopped: other snippets run with the book's code for it until you run it again. "));
      }
      if (res.stoppedBy === "limit") {
        var id = cell.getAttribute("data-cell");
        note.appendChild(button("Allow longer and run again", "run-longer", "Allow longer and run again: snippets on this page may run to the book's time limit; runs snippet " + id, function () {
          longer = true;
          run(id).catch(function () {});
        }));
      }
      if (note.firstChild) box.appendChild(note);
    }
    status(cell, "", "");
  }

  // inEditorLines says the positions of problems in a cell open in the
  // editor as the editor numbers its lines ("line 8:5: id: ...") rather
  // than as lines of the Markdown.
  function inEditorLines(text, marks) {
    return text.split("\n").map(function (line) {
      for (var i = 0; i < marks.length; i++) {
        var m = marks[i];
        if (editors[m.cell] && line.indexOf(m.at + ": ") === 0) return "line " + m.line + ":" + m.col + ": " + line.slice(m.at.length + 2);
      }
      return line;
    }).join("\n");
  }
  // markEditors marks each open editor's problems inline.
  function markEditors(marks) {
    for (var id in editors) {
      var ed = editors[id];
      if (!ed.mark) continue;
      var code = ed.getValue().split("\n"), mine = [];
      marks.forEach(function (m) {
        if (m.cell !== id) return;
        // The kernel counts columns in bytes; the editor in UTF-16 units.
        var text = code[m.line - 1] || "";
        var bytes = new TextEncoder().encode(text).slice(0, m.col - 1);
        mine.push({ line: m.line, col: new TextDecoder().decode(bytes).length + 1, message: m.message });
      });
      ed.mark(mine);
    }
  }

  // Checked prose values after a run. A value the run evaluated shows the
  // new value beside the book's, struck through, when it changed, and
  // "not re-checked", the book's value left as it is, when the run failed
  // before it evaluated it. A value the run did not reach that depends on
  // an edit (an edited cell lies above it) is "stale" until a run
  // evaluates it.
  var checked = {}; // value id -> {key: the edits above it then, v: the kernel's Value}
  function values(list, sent) {
    list.forEach(function (v) {
      var s = document.querySelector('[data-check="' + v.id + '"]');
      if (s) checked[v.id] = { key: editsAbove(s, sent), v: v };
    });
    renderValues();
  }
  // editsAbove names the edits of the cells above node, as a string.
  function editsAbove(node, eds) {
    var key = [];
    var cells = document.querySelectorAll(".cell[data-cell]");
    for (var i = 0; i < cells.length; i++) {
      if (!(cells[i].compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING)) break;
      var id = cells[i].getAttribute("data-cell");
      if (eds[id] !== undefined) key.push(id + "\u0000" + eds[id]);
    }
    return key.join("\u0000");
  }
  // applied is what later runs will run: the edits less those held.
  function applied() {
    var ed = {};
    for (var k in edits) if (held[k] !== edits[k]) ed[k] = edits[k];
    return ed;
  }
  function renderValues() {
    var now = applied();
    var spans = document.querySelectorAll("[data-check]");
    for (var i = 0; i < spans.length; i++) {
      var s = spans[i], st = checked[s.getAttribute("data-check")], key = editsAbove(s, now);
      var changed = null, note = null, title = "";
      if (st && st.key === key) {
        if (st.v.error || st.v.value === "") {
          note = "not re-checked";
          title = "Your run failed before it re-checked this value: the book's stands." + (st.v.error ? " " + st.v.error : "");
        } else if (st.v.value.trim() !== st.v.text) {
          changed = st.v.value.trim();
          title = "In your edited session: " + changed + " (the book says " + st.v.text + ")";
        }
      } else if (key !== "") {
        note = "stale";
        title = "Depends on your edit above: run the snippet above this value to re-check it.";
      }
      var mark = s.nextElementSibling;
      if (!mark || !mark.classList.contains("check-new")) mark = null;
      s.classList.toggle("changed", changed !== null);
      s.classList.toggle("unchecked", note !== null);
      if (changed === null && note === null) {
        if (mark) mark.remove();
        continue;
      }
      if (!mark) {
        mark = el("ins", "check-new");
        s.after(mark);
      }
      mark.textContent = changed !== null ? changed : note;
      mark.classList.toggle("check-note", note !== null);
      mark.title = title;
    }
  }

  // The editor: assets/editor.js (CodeMirror, vendored) on first Edit; a
  // plain text area if it cannot load.
  var editorLib = null;
  function loadEditor() {
    if (!editorLib) {
      editorLib = loadScript(root + "assets/editor.js").then(function () { return window.warpbookEditor; }, function () { return null; });
    }
    return editorLib;
  }
  function textArea(parent, code, opts) {
    var ta = el("textarea", "cell-textarea");
    ta.value = code;
    ta.spellcheck = false;
    ta.rows = Math.min(30, code.split("\n").length + 1);
    ta.setAttribute("aria-label", opts.label);
    ta.addEventListener("keydown", function (e) {
      if ((e.ctrlKey || e.metaKey) && e.key === "Enter") { e.preventDefault(); opts.onRun(); }
    });
    parent.appendChild(ta);
    return { getValue: function () { return ta.value; }, setValue: function (v) { ta.value = v; }, focus: function () { ta.focus(); }, destroy: function () { ta.remove(); } };
  }
  function edit(cell) {
    var id = cell.getAttribute("data-cell");
    if (editors[id]) { editors[id].focus(); return Promise.resolve(editors[id]); }
    return loadEditor().then(function (lib) {
      if (editors[id]) return editors[id];
      var pre = cell.querySelector("pre.code");
      var host = el("div", "cell-editor");
      pre.after(host);
      pre.hidden = true;
      var toggle = cell.querySelector(".show-hidden-label");
      if (toggle) toggle.hidden = true;
      var opts = { label: "Code of snippet " + id + " (Ctrl+Enter runs it)", onRun: function () { run(id); } };
      var book = codeOf(cell).replace(/\n$/, "");
      var code = edits[id] !== undefined ? edits[id] : book;
      if (code === book) opts.setup = setupLines(cell);
      var ed = lib ? lib.create(host, code, opts) : textArea(host, code, opts);
      editors[id] = ed;
      cell.classList.add("editing", "edited");
      cell.querySelector(".cell-reset").hidden = false;
      ed.focus();
      return ed;
    });
  }
  function reset(cell) {
    var id = cell.getAttribute("data-cell");
    if (editors[id]) { editors[id].destroy(); delete editors[id]; }
    delete edits[id];
    unhold(id);
    var host = cell.querySelector(".cell-editor");
    if (host) host.remove();
    cell.querySelector("pre.code").hidden = false;
    var toggle = cell.querySelector(".show-hidden-label");
    if (toggle) toggle.hidden = false;
    cell.classList.remove("editing", "edited");
    cell.querySelector(".cell-reset").hidden = true;
    var box = cell.querySelector(".cell-run");
    box.hidden = true;
    box.textContent = "";
    renderValues();
  }

  // Figures with inputs: the form under each figure redraws it in the
  // kernel, with the figure package's own drawing code. A number another
  // input bounds (the warps a machine's scheduler holds) is clamped when
  // that input changes; the caption follows the reader's inputs; a redraw
  // that fails clears the drawing it would replace and says why.
  function figure(form) {
    if (form.warpbookLive) return form.warpbookLive;
    var fig = form.closest("figure");
    var id = form.getAttribute("data-figure");
    var status = form.querySelector(".fig-status");
    var svg0 = fig.querySelector("svg").outerHTML;
    var data = fig.querySelector("details.fig-data");
    var data0 = data ? data.innerHTML : null;
    var cap = fig.querySelector("figcaption");
    var label = cap ? cap.querySelector(".float-label") : null;
    var cap0 = cap ? cap.innerHTML : null;
    function caption(text) {
      if (!cap) return;
      cap.textContent = "";
      if (label) { cap.appendChild(label); cap.appendChild(document.createTextNode(" ")); }
      cap.appendChild(document.createTextNode(text));
    }
    function clamp() {
      var nums = form.querySelectorAll("[data-limit-by]");
      for (var j = 0; j < nums.length; j++) {
        var n = nums[j], by = form.querySelector('[name="' + n.getAttribute("data-limit-by") + '"]');
        var most = by ? JSON.parse(n.getAttribute("data-limits"))[by.value] : undefined;
        if (most === undefined) continue;
        n.max = most;
        if (Number(n.value) > most) n.value = String(most);
      }
    }
    function restore() {
      fig.querySelector("svg").outerHTML = svg0;
      if (data) data.innerHTML = data0;
      if (cap) cap.innerHTML = cap0;
      fig.classList.remove("redrawn", "fig-failed");
      status.textContent = "";
    }
    function submit() {
      var values = {}, changed = false;
      var inputs = form.querySelectorAll("[data-template]");
      for (var j = 0; j < inputs.length; j++) {
        var inp = inputs[j];
        if (inp.value !== inp.getAttribute("data-value")) { values[inp.name] = inp.value; changed = true; }
      }
      if (!changed) { restore(); return; }
      status.textContent = kernel ? "Drawing…" : "Loading the kernel…";
      function failed(why) {
        // The drawing on screen is not the reader's inputs': it goes.
        fig.classList.add("fig-failed");
        fig.classList.remove("redrawn");
        caption("Not drawn for your inputs.");
        status.textContent = "Cannot draw this figure for your inputs: " + why;
      }
      loadPage().then(function (p) {
        return requestFigure({ yaml: p.figures[id], id: id, values: values });
      }).then(function (r) {
        if (r.error) { failed(r.error); return; }
        fig.querySelector("svg").outerHTML = r.svg;
        if (data && r.data) data.innerHTML = data.querySelector("summary").outerHTML + "\n" + r.data;
        if (r.caption) caption(r.caption);
        fig.classList.remove("fig-failed");
        fig.classList.add("redrawn");
        status.textContent = "Redrawn for your inputs.";
      }, function (err) { failed(err.message); });
    }
    form.addEventListener("change", function (e) { if (e.target.tagName === "SELECT") clamp(); });
    form.addEventListener("reset", function () { setTimeout(function () { clamp(); restore(); }, 0); });
    form.addEventListener("submit", function (e) { e.preventDefault(); submit(); });
    form.warpbookLive = { clamp: clamp, submit: submit };
    return form.warpbookLive;
  }
  // prefetch loads the page's source and the kernel, compiles it and
  // starts a worker, while the reader reads.
  function prefetch() {
    loadPage().catch(function () {});
    if (!kernelURL) return;
    loadKernel().then(function (k) { if (!worker) worker = startWorker(k); }).catch(function () {});
  }
  function byCell(f) {
    return function (id) {
      var c = cellByID(id);
      return c ? f(c) : Promise.reject(new Error("no snippet " + id + " on this page"));
    };
  }
  return {
    run: run,
    stop: function (id) { if (inflight && inflight.cell === id) inflight.stop(); },
    edit: byCell(edit),
    reset: byCell(function (c) { reset(c); }),
    code: function (id) {
      if (editors[id]) return editors[id].getValue();
      if (edits[id] !== undefined) return edits[id];
      return null;
    },
    running: function () { return inflight ? (inflight.unit || "") : null; },
    figure: figure,
    prefetch: prefetch
  };
};
