// The live book's code editor (see site/assets/live.js): CodeMirror 6
// with Go highlighting and indentation, undo, and Ctrl/Cmd+Enter to run.
// Highlighting uses classes (tok-*), so that warpbook.css themes it. The
// setup lines the book hides open folded and marked; a run's problems
// are marked inline (@codemirror/lint) at the editor's lines.
import { EditorState, StateField, RangeSetBuilder } from "@codemirror/state";
import { EditorView, Decoration, keymap, drawSelection, highlightActiveLine, lineNumbers } from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { indentOnInput, indentUnit, bracketMatching, syntaxHighlighting, codeFolding, foldEffect, unfoldEffect, foldedRanges, foldKeymap } from "@codemirror/language";
import { setDiagnostics, lintGutter } from "@codemirror/lint";
import { classHighlighter } from "@lezer/highlight";
import { go } from "@codemirror/lang-go";

const setupLine = Decoration.line({ class: "cm-setup" });

// setupField marks the setup lines, and keeps them marked through edits.
function setupField(doc, ranges) {
  return StateField.define({
    create() {
      const b = new RangeSetBuilder();
      for (const [from, to] of ranges) {
        for (let n = from; n <= to && n <= doc.lines; n++) b.add(doc.line(n).from, doc.line(n).from, setupLine);
      }
      return b.finish();
    },
    update(deco, tr) { return deco.map(tr.changes); },
    provide: (f) => EditorView.decorations.from(f),
  });
}

// placeholder is what a folded run of setup lines shows: a button that
// says what it holds and unfolds it.
function placeholder(view, onclick, prepared) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "cm-setupFold";
  b.textContent = "⋯ " + prepared;
  b.setAttribute("aria-label", "Show " + prepared);
  b.onclick = onclick;
  return b;
}

window.warpbookEditor = {
  // create opens an editor on code in parent. opts.label names it for
  // screen readers; opts.onRun runs the cell (Ctrl/Cmd+Enter);
  // opts.setup lists the runs of setup lines, [first, last], numbered
  // from 1, which open folded.
  create(parent, code, opts) {
    const setup = opts.setup || [];
    const doc = EditorState.create({ doc: code }).doc;
    const view = new EditorView({
      parent,
      state: EditorState.create({
        doc: code,
        extensions: [
          lineNumbers(),
          history(),
          drawSelection(),
          highlightActiveLine(),
          indentOnInput(),
          bracketMatching(),
          indentUnit.of("\t"),
          EditorState.tabSize.of(4),
          go(),
          EditorView.lineWrapping,
          syntaxHighlighting(classHighlighter),
          setupField(doc, setup),
          codeFolding({
            preparePlaceholder: (state, range) => {
              const n = state.doc.lineAt(range.to).number - state.doc.lineAt(range.from).number + 1;
              return n + (n === 1 ? " line" : " lines") + " of setup";
            },
            placeholderDOM: placeholder,
          }),
          lintGutter(),
          keymap.of([
            { key: "Mod-Enter", run: () => { opts.onRun(); return true; } },
            ...defaultKeymap,
            ...historyKeymap,
            ...foldKeymap,
            indentWithTab,
          ]),
          EditorView.contentAttributes.of({ "aria-label": opts.label }),
        ],
      }),
    });
    const folds = [];
    for (const [from, to] of setup) {
      if (from < 1 || to > doc.lines || from > to) continue;
      folds.push(foldEffect.of({ from: doc.line(from).from, to: doc.line(to).to }));
    }
    if (folds.length) view.dispatch({ effects: folds });
    return {
      getValue: () => view.state.doc.toString(),
      setValue: (v) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: v } }),
      focus: () => view.focus(),
      destroy: () => view.destroy(),
      // mark marks problems inline: each {line, col, message}, line from
      // 1, col in UTF-16 code units from 1; a fold that hides one opens.
      // An empty list clears them.
      mark(list) {
        const d = view.state.doc, diags = [], unfold = [];
        for (const m of list) {
          if (m.line < 1 || m.line > d.lines) continue;
          const line = d.line(m.line);
          const from = Math.min(line.from + Math.max(m.col, 1) - 1, line.to);
          const to = from < line.to ? Math.max(from + 1, wordEnd(line, from)) : from;
          diags.push({ from, to, severity: "error", message: m.message });
          foldedRanges(view.state).between(from, from, (a, b) => { unfold.push(unfoldEffect.of({ from: a, to: b })); });
        }
        view.dispatch(setDiagnostics(view.state, diags), { effects: unfold });
      },
    };
  },
};

// wordEnd is where the word at from ends, on its line.
function wordEnd(line, from) {
  const rest = line.text.slice(from - line.from);
  const m = /^[\p{L}\p{N}_]+/u.exec(rest);
  return from + (m ? m[0].length : 1);
}
