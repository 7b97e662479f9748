// The live book's code editor (see site/assets/live.js): CodeMirror 6
// with Go highlighting and indentation, undo, and Ctrl/Cmd+Enter to run.
// Highlighting uses classes (tok-*), so that warpbook.css themes it.
import { EditorState } from "@codemirror/state";
import { EditorView, keymap, drawSelection, highlightActiveLine, lineNumbers } from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { indentOnInput, indentUnit, bracketMatching, syntaxHighlighting } from "@codemirror/language";
import { classHighlighter } from "@lezer/highlight";
import { go } from "@codemirror/lang-go";

window.warpbookEditor = {
  // create opens an editor on code in parent. opts.label names it for
  // screen readers; opts.onRun runs the cell (Ctrl/Cmd+Enter).
  create(parent, code, opts) {
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
          keymap.of([
            { key: "Mod-Enter", run: () => { opts.onRun(); return true; } },
            ...defaultKeymap,
            ...historyKeymap,
            indentWithTab,
          ]),
          EditorView.contentAttributes.of({ "aria-label": opts.label }),
        ],
      }),
    });
    return {
      getValue: () => view.state.doc.toString(),
      setValue: (v) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: v } }),
      focus: () => view.focus(),
      destroy: () => view.destroy(),
    };
  },
};
