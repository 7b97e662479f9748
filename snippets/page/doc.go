// Package page is warpbook's page model: it reads a Markdown page, in
// the book's one dialect, into the [Page] that every command works from,
// and reports what is wrong with it as [Diagnostics]. It knows nothing of
// running snippets (package snippets, the kernel, does that) and imports
// neither the interpreter nor go/types, so that what needs only pages (a
// figure, the site's front matter) links only this.
//
// # The dialect
//
// Every command reads a page the same way: [Parse] parses it once, in the
// one Markdown dialect of warpbook, and everything downstream (the
// kernel, the site, warpbook test, build, serve and run) works from the
// [Page] it returns; nothing re-reads the Markdown. The dialect is
// CommonMark with GitHub Flavored Markdown (tables, strikethrough,
// autolinks, task lists), footnotes, heading ids (automatic, and {#id}),
// GitHub alerts (a blockquote opening with [!NOTE], [!TIP], [!IMPORTANT],
// [!WARNING] or [!CAUTION]), YAML front matter between "---" lines, and
// warpbook's cells, output blocks and checked values.
//
// The Page holds the source, the goldmark AST ([Page.Doc]), the decoded
// [FrontMatter], the [Cell]s and [Check]s, and the parse's
// [Page.Diagnostics]. In the AST, the dialect's own nodes stand where they
// were written: a [FrontMatterNode], an [Alert], a [CellNode] (whose
// children are the go run block and its output block) and a [CheckNode]
// (whose children are the link's text). Renderers render the AST as it is
// and never change it.
//
// Every problem, whoever finds it (the parser, the type checker, the
// interpreter, the site, a figure, a YAML decoder), is a [Diagnostic] at a
// file:line:col of the page, with the column in bytes as go/token counts
// them, and [Diagnostics.Write] is the one printer every command uses.
//
// Front matter is decoded strictly ([DecodeYAML]: a key with no field is
// an error, and sizes, nesting and alias expansion are bounded) into
// [FrontMatter]; a tag that is not a slug, an unknown byline status or
// difficulty, and front matter that is never closed are parse errors, at
// the key. Which keys suit which kind of page (chapter, glossary entry,
// question) the site decides.
//
// A fenced block whose info string starts with "go run" is a [Cell]; the
// fenced "output" block right after it holds what it must print; a plain
// "go" block is display-only. The lines above a "// ---" line
// ([SetupSeparator]) are hidden setup. A cell's attributes ([Attrs]) follow
// "go run" as key=value or bare flags; unknown attributes, an output block
// with no cell before it and duplicate ids are errors ([Page.Diagnostics]).
// A link whose destination is "=" is a checked value ([Check]):
//
//	the A100 runs [48](= "r.ActiveWarps") warps per SM
//
// A number typed in plain prose that one of the page's cells prints is a
// warning in [Page.Warnings], unless the front matter's prose_numbers
// lists it. The author's reference for all of this, with every attribute,
// is docs/writing.md in the repository.
//
// A fenced block whose info string starts with "cuda compile" is a
// [CUDACell] (attributes [CUDAAttrs]: arch=, id=, flags=): CUDA that the
// kernel compiles with NVIDIA's toolkit. The "resources" block right after
// it records ptxas's figures per kernel and architecture (parsed into
// CUDACell.Kernels with [ptxas.ParseTable]), and "sass" blocks after it,
// or anywhere below it with cell=ID, quote chosen instructions
// ([SASSBlock]). In the AST a [CUDANode] holds the cell's two blocks and a
// [SASSNode] each sass block.
//
// # Figures, tables and references
//
// A figure block's info string may give it an id ("```figure
// id=fig-cliffs"); a paragraph right after a table that starts with
// "Table:" is the table's [Caption], with an optional {#tbl-ID} at its
// end; and "@fig-ID" or "@tbl-ID" in prose is a [Ref] to one, which the
// site writes as "Figure 5.2" and links.
//
// # Reading and editing
//
// [ReadFile] reads a page, or any file of a book, within a limit on its
// size ([MaxPageBytes], [MaxAssetBytes]) and refuses what is not a regular
// file or leads outside the book. [Page.WithCode] and [Page.WithVerified]
// ([Page.WithOutputs] for outputs alone) return the page's source with
// cells' code or verified blocks (outputs, resources, SASS) replaced,
// every other byte kept: what a reader's edits in the browser and
// "warpbook test -update" make of the page.
package page
